//! Helpers for the end-to-end tests: build the real binaries once, run `arena`, read results.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// The folder holding the built binaries (`target/debug` or `target/release`), after building
/// every binary of the workspace and the C++ sample bot once per test process (unless
/// `ARENA_E2E_PREBUILT` is set: `tools/run-tests` built them, or the user cannot build).
pub fn bins() -> &'static Path {
    static BINS: OnceLock<PathBuf> = OnceLock::new();
    BINS.get_or_init(|| {
        // The test executable lives in target/<profile>/deps/.
        let exe = std::env::current_exe().expect("test executable path");
        let dir = exe.parent().and_then(Path::parent).expect("target/<profile>").to_path_buf();
        if std::env::var_os("ARENA_E2E_PREBUILT").is_some() {
            // Run by tools/run-tests, which built them with the tests, or by a user who cannot
            // build (the unprivileged run of the zoo in CI): the binaries are there already.
            return dir;
        }
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let mut build = Command::new(cargo);
        build.current_dir(root()).args(["build", "--workspace", "--bins", "--quiet"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build");
        assert!(status.success(), "cargo build --workspace --bins failed");
        let status = Command::new("make")
            .args(["-s", "-C"])
            .arg(root().join("sample-bots/cpp-greedy"))
            .status()
            .expect("run make for the C++ sample bot");
        assert!(status.success(), "make for sample-bots/cpp-greedy failed");
        dir
    })
}

/// The path of a workspace binary, as a string for command lines.
pub fn bin(name: &str) -> String {
    bins().join(name).display().to_string()
}

/// A copy of `file` in `dir`, which everyone may read and run: a bot without a box, when the
/// arena is root, runs as a user of its own, who may not reach the checkout (under a private
/// home folder, say).
pub fn shared_copy(dir: &Path, file: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let to = dir.join(Path::new(file).file_name().expect("a file name"));
    std::fs::copy(file, &to).expect("copy");
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    to.display().to_string()
}

/// The C++ sample bot.
pub fn cpp_greedy() -> String {
    bins();
    root().join("sample-bots/cpp-greedy/cpp-greedy").display().to_string()
}

/// A C bot that answers `WAIT` to two TICKs and at the third writes through a null pointer
/// (a segmentation fault, as a beginner's C bot has), compiled with `cc` into `dir`, which
/// everyone may then read (see [`shared_copy`]).
pub fn segfaulting_c_bot(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    const SOURCE: &str = r#"#include <stdio.h>
#include <string.h>
int main(void) {
    char line[4096];
    int ticks = 0;
    int *volatile cell = NULL;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "TICK", 4) != 0) continue;
        if (++ticks == 3) *cell = 1;
        printf("WAIT\n");
        fflush(stdout);
    }
    return 0;
}
"#;
    let (source, program) = (dir.join("segv.c"), dir.join("segv"));
    std::fs::write(&source, SOURCE).expect("write segv.c");
    let built = Command::new("cc").arg("-O0").arg("-o").arg(&program).arg(&source).status().expect("run cc");
    assert!(built.success(), "cc segv.c failed");
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    program.display().to_string()
}

/// A hostile test bot from `tests/bots/`, run with `sh`.
pub fn script(name: &str) -> String {
    format!("sh {}", root().join("tests/bots").join(name).display())
}

/// Four bots of a league still running when a test signals or kills it: `slowpoke.sh`, which
/// answers each TICK after `marker` seconds (the marker also tells its processes from other
/// tests'), and three sample bots.
pub fn slow_bots(marker: &str) -> Vec<(&'static str, String)> {
    vec![
        ("slow", format!("{} {marker}", script("slowpoke.sh"))),
        ("greedy", bin("greedy")),
        ("waiter", bin("waiter")),
        ("random", bin("random")),
    ]
}

/// A map from `maps/`.
pub fn map(name: &str) -> String {
    root().join("maps").join(name).display().to_string()
}

/// Runs `arena` with `args` from the workspace root.
pub fn arena(args: &[&str]) -> Output {
    arena_in(&root(), args)
}

/// An Atoms game of `atoms-greedy` against `atoms-random` (and `atoms-greedy` again in a third
/// seat) on a `size` board (`5x5`), seeded, its replay written to `replay`, with `extra` flags.
pub fn atoms_duel(players: usize, size: &str, seed: u64, replay: &Path, extra: &[&str]) -> Output {
    let (greedy, random) = (bin("atoms-greedy"), bin("atoms-random"));
    let bots = [&greedy, &random, &greedy].into_iter().take(players).map(String::as_str);
    let (players, seed, replay) = (players.to_string(), seed.to_string(), replay.display().to_string());
    let args = ["duel", "--game", "atoms", "--players", &players, "--size", size, "--seed", &seed, "--replay", &replay];
    arena(&args.into_iter().chain(extra.iter().copied()).chain(bots).collect::<Vec<_>>())
}

/// The board of an Atoms replay `rep` after step `k` (0: the initial board), one string per row:
/// the initial frame's whole `board`, with the cells each step's frame lists as `changed` applied.
pub fn atoms_board(rep: &serde_json::Value, k: usize) -> Vec<String> {
    let cells = |row: &serde_json::Value| row.as_str().unwrap().split(' ').map(str::to_string).collect::<Vec<_>>();
    let mut rows: Vec<Vec<String>> = rep["initial"]["board"].as_array().unwrap().iter().map(cells).collect();
    for step in &rep["steps"].as_array().unwrap()[..k] {
        if let Some(board) = step["frame"]["board"].as_array() {
            rows = board.iter().map(cells).collect();
        }
        for change in step["frame"]["changed"].as_array().into_iter().flatten() {
            let (x, y) = (change[0].as_u64().unwrap() as usize, change[1].as_u64().unwrap() as usize);
            rows[y][x] = change[2].as_str().unwrap().to_string();
        }
    }
    rows.iter().map(|r| r.join(" ")).collect()
}

/// Runs `arena` with `args` from `dir` (relative paths in `args` are `dir`'s).
pub fn arena_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin("arena")).current_dir(dir).args(args).output().expect("run arena")
}

/// Runs a duel with `--json` and a replay in `dir`; returns the result JSON and the replay path.
pub fn duel(dir: &Path, map_name: &str, extra: &[&str], bots: [&str; 2]) -> (serde_json::Value, PathBuf) {
    let replay = dir.join(format!("replay-{}.json", std::process::id() as u64 * 1000 + next_id()));
    let replay_arg = replay.display().to_string();
    let map_arg = map(map_name);
    let mut args = vec!["duel", "--json", "--map", &map_arg, "--replay", &replay_arg];
    if !extra.contains(&"--seed") {
        args.extend_from_slice(&["--seed", "7"]);
    }
    args.extend_from_slice(extra);
    args.extend_from_slice(&bots);
    let out = arena(&args);
    assert!(
        out.status.success(),
        "arena duel failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let result = serde_json::from_slice(&out.stdout).expect("duel --json prints JSON");
    (result, replay)
}

fn next_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// Player `i` of a result: (score, finished, forfeit).
pub fn player(result: &serde_json::Value, i: usize) -> (i64, bool, Option<String>) {
    let p = &result["players"][i];
    (
        p["score"].as_i64().expect("integer score"),
        p["finished"].as_bool().expect("boolean finished"),
        p["forfeit"].as_str().map(str::to_string),
    )
}

/// Whether any process's command line contains `needle`.
pub fn process_running(needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        std::fs::read(e.path().join("cmdline"))
            .map(|c| {
                let text = String::from_utf8_lossy(&c).replace('\0', " ");
                text.contains(needle) && !text.contains("cargo") && !text.contains("/deps/")
            })
            .unwrap_or(false)
    })
}

/// Runs `arena tournament` with `args`, one `--bot` per entry of `bots` and `--out out`;
/// asserts it succeeded and returns the written `leaderboard.json`.
pub fn tournament(out: &Path, args: &[&str], bots: &[String]) -> serde_json::Value {
    let out_arg = out.display().to_string();
    let mut all = vec!["tournament", "--out", &out_arg];
    all.extend_from_slice(args);
    for b in bots {
        all.extend(["--bot", b.as_str()]);
    }
    let run = arena(&all);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    leaderboard(out)
}

/// The `leaderboard.json` a tournament wrote in `dir`.
pub fn leaderboard(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("leaderboard.json")).expect("leaderboard.json")).expect("JSON")
}

/// Writes a tournament config at `path`: `settings` (TOML lines), the maps of `maps/` named in
/// `maps`, and one `[[bots]]` table per (name, command); returns `path`.
pub fn config_file(path: &Path, settings: &str, maps: &[&str], bots: &[(&str, String)]) -> PathBuf {
    let maps: Vec<String> = maps.iter().map(|m| format!("{:?}", map(m))).collect();
    let mut text = format!("{settings}\nmaps = [{}]\n", maps.join(", "));
    for (name, command) in bots {
        text.push_str(&format!("[[bots]]\nname = {name:?}\ncommand = {command:?}\n"));
    }
    std::fs::write(path, text).expect("write the config");
    path.to_path_buf()
}

/// A leaderboard without its timing fields (its date, when its last match ended; when each
/// version was first seen): what two runs of the same league must agree on.
pub fn untimed(board: &serde_json::Value) -> serde_json::Value {
    let mut board = board.clone();
    if let Some(facts) = board.get_mut("facts").and_then(|f| f.as_object_mut()) {
        facts.remove("date");
    }
    for row in board.get_mut("rows").and_then(|r| r.as_array_mut()).into_iter().flatten() {
        if let Some(row) = row.as_object_mut() {
            row.remove("version_at");
        }
    }
    board
}

/// Runs `arena` with `args` in `dir`, `input` on its stdin; returns its output.
pub fn arena_fed(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(bin("arena"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    child.stdin.take().expect("stdin").write_all(input).expect("write stdin");
    child.wait_with_output().expect("wait for arena")
}

/// One starter kit's sample bots, as command lines.
#[derive(Debug, Clone)]
pub struct Kit {
    /// `c`, `cpp` or `python`.
    pub name: &'static str,
    /// The Resource Rush sample bot.
    pub greedy: String,
    /// The Atoms sample bot.
    pub atoms: String,
    /// The Tactics sample bot.
    pub tactics: String,
}

/// The three starter kits' sample bots, the C and C++ ones built once per test process.
pub fn kits() -> &'static [Kit] {
    static KITS: OnceLock<Vec<Kit>> = OnceLock::new();
    KITS.get_or_init(|| {
        let dir = root().join("starter-kits");
        // Test programs run side by side (tools/run-tests), each making the kits: one's `make`
        // took the program another's was still linking as up to date, and ran it half-written
        // (check_bot's C++ greedy failed in CI). One program's makes at a time: a lock on the
        // kits' folder, held until they end.
        let lock = std::fs::File::open(&dir).expect("open starter-kits");
        // SAFETY: flock on a descriptor this function owns (released when it is closed).
        let locked = unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) };
        assert_eq!(locked, 0, "lock starter-kits: {}", std::io::Error::last_os_error());
        for lang in ["c", "cpp"] {
            let status = Command::new("make")
                .args(["-s", "-C"])
                .arg(dir.join(lang))
                .status()
                .expect("run make for a starter kit");
            assert!(status.success(), "make for starter-kits/{lang} failed");
        }
        let at = |lang: &str, file: &str| dir.join(lang).join(file).display().to_string();
        let py = |file: &str| format!("python3 {}", at("python", file));
        vec![
            Kit { name: "c", greedy: at("c", "greedy"), atoms: at("c", "atoms-bot"), tactics: at("c", "tactics-bot") },
            Kit {
                name: "cpp",
                greedy: at("cpp", "greedy"),
                atoms: at("cpp", "atoms-bot"),
                tactics: at("cpp", "tactics-bot"),
            },
            Kit { name: "python", greedy: py("greedy.py"), atoms: py("atoms_bot.py"), tactics: py("tactics_bot.py") },
        ]
    })
}

/// The numbers of the tests marked easy in `maps/tests/README.md`.
pub fn easy_tests() -> Vec<usize> {
    let readme = std::fs::read_to_string(root().join("maps/tests/README.md")).expect("maps/tests/README.md");
    readme
        .lines()
        .filter(|l| l.contains("(easy)"))
        .filter_map(|l| l.trim_start_matches("| test").split(' ').next()?.parse().ok())
        .collect()
}

/// Whether the kernel gives an unprivileged user a user namespace (no sysctl forbids it).
pub fn user_namespaces_offered() -> bool {
    let read = |path: &str| std::fs::read_to_string(path).ok().and_then(|v| v.trim().parse::<u64>().ok());
    read("/proc/sys/user/max_user_namespaces") != Some(0)
        && read("/proc/sys/kernel/unprivileged_userns_clone") != Some(0)
        && read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") != Some(1)
}

/// Whether this kernel makes `AF_VSOCK` sockets.
pub fn vsock_offered() -> bool {
    // SAFETY: socket takes no pointer; a descriptor it gives is closed.
    let fd = unsafe { libc::socket(libc::AF_VSOCK, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    // SAFETY: closes the descriptor just made.
    fd >= 0 && unsafe { libc::close(fd) } == 0
}

/// Whether the kernel gives this process an io_uring (set up and closed at once): what the zoo's
/// `io-uring` attack tries, and what its test's control needs.
pub fn io_uring_offered() -> bool {
    // `struct io_uring_params`: 120 bytes, zeroed, that the kernel fills in.
    let mut params = [0u64; 15];
    // SAFETY: the kernel writes at most the 120 bytes of params.
    let fd = unsafe { libc::syscall(libc::SYS_io_uring_setup, 4, params.as_mut_ptr()) };
    if fd < 0 {
        return false;
    }
    // SAFETY: fd is the ring the kernel just gave.
    unsafe { libc::close(fd as i32) };
    true
}

/// The x32 bit of an x86_64 system call number: the same calls, numbered for x32 programs.
pub const X32_SYSCALL_BIT: libc::c_long = 0x4000_0000;

/// Whether the kernel answers this process's system calls by their x32 numbers (a kernel with
/// x32 enabled): what the zoo's `x32-widen-cpus` attack needs, and its test's control.
pub fn x32_offered() -> bool {
    // SAFETY: getpid takes no arguments; an unknown number only fails with ENOSYS.
    cfg!(target_arch = "x86_64") && unsafe { libc::syscall(X32_SYSCALL_BIT | libc::SYS_getpid) } > 0
}

/// Whether the kernel gives this process a fanotify group in the mode an unprivileged program
/// may use (`FAN_REPORT_FID`, set up and closed at once): what the zoo's `talk fanotify` needs
/// without a box, for its test's control.
pub fn fanotify_offered() -> bool {
    // SAFETY: fanotify_init takes two integers.
    let fd = unsafe { libc::fanotify_init(libc::FAN_CLASS_NOTIF | libc::FAN_REPORT_FID, libc::O_RDONLY as u32) };
    if fd < 0 {
        return false;
    }
    // SAFETY: fd is the group the kernel just gave.
    unsafe { libc::close(fd) };
    true
}

/// Copies `from` (a file or a folder's contents) into the folder `to`, with `cp -a` (modes and
/// times kept, as a teacher's copy would).
pub fn copy_into(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let (from, to) = (from.display().to_string(), to.display().to_string());
    let from = if Path::new(&from).is_dir() { format!("{from}/.") } else { from };
    assert!(Command::new("cp").args(["-a", &from, &to]).status().unwrap().success(), "cp {from}");
}

/// A league config's text: the map `fire.txt`, `settings` (lines of top-level keys), greedy, and
/// `student` (the greedy program) whose folder is `student` beside the config, built by `build`.
pub fn student_league(settings: &str, build: &str) -> String {
    let mut text = format!("maps = [{:?}]\n{settings}\n", map("fire.txt"));
    text.push_str(&format!("[[bots]]\nname = \"greedy\"\ncommand = {:?}\n", bin("greedy")));
    text.push_str(&format!(
        "[[bots]]\nname = \"student\"\ncommand = {:?}\ncwd = \"student\"\nbuild = {build:?}\n",
        bin("greedy")
    ));
    text
}

/// Runs git in `dir` (setting a repository up; never what the arena does), which must succeed:
/// its output, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Each regular file under `dir` (links not followed): its path there, its inode and its bytes.
pub fn files_under(dir: &Path) -> std::collections::BTreeMap<PathBuf, (u64, Vec<u8>)> {
    use std::os::unix::fs::MetadataExt;
    let mut all = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap().flatten() {
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            if meta.is_dir() {
                todo.push(entry.path());
            } else if meta.is_file() {
                let rel = entry.path().strip_prefix(dir).unwrap().to_path_buf();
                all.insert(rel, (meta.ino(), std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    all
}

/// Rewrites the record of `league` as an arena before 2026-12 wrote it: every bot plays from its
/// own files (its entry as the config gives it), not from the league's copy of its version.
pub fn playing_from_own_files(league: &Path) {
    let path = league.join("tournament.json");
    let mut record: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let configured = record["config"]["bots"].as_array().unwrap().clone();
    for bot in record["bots"].as_array_mut().unwrap() {
        let entry = configured.iter().find(|b| b["name"] == bot["name"]).unwrap().as_object().unwrap().clone();
        let fields = bot.as_object_mut().unwrap();
        for key in ["command", "cwd", "build", "files", "ignore", "kept"] {
            fields.remove(key);
        }
        fields.extend(entry);
    }
    std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
}

/// The Landlock ABI this kernel offers (0: none), which confines plain bots (`--sandbox plain`,
/// or `auto` where no box can be made): 1 its files, 4 its TCP, 6 its signals.
pub fn landlock_abi() -> i64 {
    // SAFETY: with a null attribute, a size of 0 and flag 1 (LANDLOCK_CREATE_RULESET_VERSION),
    // the call only returns the ABI version.
    let version =
        unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<libc::c_void>(), 0usize, 1u32) };
    version.max(0)
}

/// The arena's environment variable that runs plain bots without Landlock: for the controls of
/// the tests, which show the attacks it stops working without it.
pub const PLAIN_WITHOUT_LANDLOCK: (&str, &str) = ("ARENA_PLAIN_WITHOUT_LANDLOCK", "1");

/// The arena's switch (for tests' controls only) that gives plain bots and builds no mount
/// namespace of their own, as where none can be made (see `arena/src/sandbox/mounts.rs`).
pub const PLAIN_WITHOUT_MOUNT_NAMESPACE: (&str, &str) = ("ARENA_PLAIN_WITHOUT_MOUNT_NAMESPACE", "1");

/// A path as `zoo-attack` takes one without naming it (`hex:…`): a plain bot's Landlock, as a
/// box, shows a bot the files its command names.
pub fn hex(path: &Path) -> String {
    let bytes = path.display().to_string().into_bytes();
    format!("hex:{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// The names of what the folder `dir` holds, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Puts a symbolic link to `target` at `path` (in place of the folder or link there, if any),
/// owned by `uid` (as another user's would be: root only).
pub fn link_as(path: &Path, target: &Path, uid: u32) {
    if path.is_symlink() {
        std::fs::remove_file(path).unwrap();
    } else if path.exists() {
        std::fs::remove_dir_all(path).unwrap();
    }
    std::os::unix::fs::symlink(target, path).unwrap();
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
}

/// Whether the tests run as root (and so does the arena they start).
pub fn as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether a test that needs root is skipped here (the arena is not root): says so, with `why`,
/// on stderr.
pub fn skipped_unless_root(why: &str) -> bool {
    let root = as_root();
    if !root {
        eprintln!("skipped, not root: {why}");
    }
    !root
}
