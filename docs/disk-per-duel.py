"""Disk space of a tournament folder per match, for the README's storage figures.

python3 docs/disk-per-duel.py FOLDER

For each match: its replay and its page, in bytes and on disk (allocated blocks), split
between matches that ran all 200 ticks and shorter ones; then the whole folder, and per match
without versions/ (copies of the bots, a cost per bot rather than per match).
"""
import json,os,sys,collections
os.chdir(sys.argv[1])
lines=[json.loads(l) for l in open('results.jsonl')]
st=collections.defaultdict(list)
for l in lines:
    r=l['replay']; p=r[:-len('.json.gz')]+'.html'
    blk=lambda f: os.stat(f).st_blocks*512
    st[l['steps']==200].append((os.path.getsize(r),os.path.getsize(p),blk(r),blk(p)))
for k,v in sorted(st.items()):
    n=len(v)
    print('%s: %d matches; replay avg %.1f KB, page avg %.1f KB; both: avg %.1f KB, max %.1f KB; on disk (4 KB blocks) avg %.1f KB, max %.1f KB'%(
      '200 ticks' if k else 'shorter', n, sum(x[0] for x in v)/n/1024, sum(x[1] for x in v)/n/1024,
      sum(x[0]+x[1] for x in v)/n/1024, max(x[0]+x[1] for x in v)/1024, sum(x[2]+x[3] for x in v)/n/1024, max(x[2]+x[3] for x in v)/1024))
tot=ver=0
for root,dirs,files in os.walk('.'):
    for f in files:
        b=os.stat(os.path.join(root,f)).st_blocks*512
        tot+=b
        if root=='./versions' or root.startswith('./versions/'): ver+=b
print('whole folder: %.1f MB on disk; without versions/ (the kept copies of the bots): %.1f MB, %.1f KB per match; versions/: %.1f MB'%(
  tot/1e6, (tot-ver)/1e6, (tot-ver)/len(lines)/1024, ver/1e6))
