//! What a bot's command will really run, looked at before or after it fails to start: a
//! program named bare and not where bots look for programs, a script whose `#!` line names an
//! interpreter the bot cannot run (Windows line endings, another machine's path), the script
//! an interpreter is given. One check for the referee's hint when a start fails and for a
//! league's check of its bots before it plays them (so that such a bot gets a "cannot play"
//! row, not matches that cannot be played).

use std::path::Path;

use crate::safe_text::{shell_word, terminal};
use crate::sandbox::{is_executable_file, is_system, Sight};

/// Why the command `words`, run in `folder` (or the current folder) by a bot that sees
/// `sight`, cannot start, as words that follow "cannot start: "; `None` when nothing is seen
/// wrong. A program named by a path: it exists, may be executed, and its `#!` line (if any)
/// names an interpreter the bot has; a bare name: it is found where the bot looks; and the
/// script an interpreter is given (`python3 bot.py`) exists.
pub fn trouble(words: &[String], folder: Option<&Path>, sight: &Sight) -> Option<String> {
    let program = words.first()?;
    let here = folder.unwrap_or(Path::new("."));
    if program.contains('/') {
        let path = here.join(program);
        if !path.is_file() {
            return Some(format!("program `{}` not found", terminal(program)));
        }
        if !is_executable_file(&path) {
            return Some(format!(
                "`{}` has no execute permission: `chmod +x {}`",
                terminal(program),
                shell_word(program)
            ));
        }
        if let Some(why) = interpreter_trouble(program, &path, words, folder, sight) {
            return Some(why);
        }
    } else if sight.find(program).is_none() {
        let dirs = dirs_text(sight);
        let hint =
            bare_hint(program, sight, std::env::var_os("PATH").as_deref()).map_or(String::new(), |h| format!(": {h}"));
        return Some(format!(
            "program `{}` not found in {dirs}, where a bot's programs are looked for{hint}",
            terminal(program)
        ));
    }
    script_trouble(words, folder)
}

/// Why the program of `words`, a file that is there but failed to start as missing, cannot
/// start: what its `#!` line names (see [`trouble`]).
pub(super) fn interpreter_hint(words: &[String], folder: Option<&Path>, sight: &Sight) -> Option<String> {
    let program = words.first()?;
    interpreter_trouble(program, &folder.unwrap_or(Path::new(".")).join(program), words, folder, sight)
}

/// The folders of `sight`'s PATH, as a message lists them.
fn dirs_text(sight: &Sight) -> String {
    let dirs: Vec<String> = std::env::split_paths(&sight.path).map(|d| terminal(&d.display().to_string())).collect();
    dirs.join(", ")
}

/// What to write instead of the bare `program` that the bot does not find: `python3` for
/// `python` where the bot has it; what the user's PATH (`user_path`) has under that name, if it
/// is a compiled program the bot can be given by its full path; or why the user's cannot serve
/// (a script, such as pyenv's shims, running programs from a folder a box does not show).
pub(super) fn bare_hint(program: &str, sight: &Sight, user_path: Option<&std::ffi::OsStr>) -> Option<String> {
    let shown = terminal(program);
    let instead = (program == "python").then(|| sight.find("python3")).flatten();
    let on_path = user_path.and_then(|p| {
        let dirs = std::env::split_paths(p).filter(|d| !std::env::split_paths(&sight.path).any(|b| b == *d));
        dirs.map(|d| d.join(program)).find(|f| is_executable_file(f))
    });
    let dirs = dirs_text(sight);
    let Some(on_path) = on_path else {
        return instead
            .map(|i| format!("write `{}` ({})", shell_word(&name_of(&i)), terminal(&i.display().to_string())));
    };
    let at = terminal(&on_path.display().to_string());
    let script = crate::files::regular_head(&on_path, 2).is_some_and(|h| h.starts_with(b"#!"));
    let unseen = sight.boxed && !std::fs::canonicalize(&on_path).is_ok_and(|p| is_system(&p));
    let why = match (script, unseen) {
        (true, _) => "a script (such as a pyenv shim) that runs programs of its own folders, which a bot does not see",
        (false, true) => "outside the system's folders, which are all a bot's box shows of the machine",
        (false, false) => "",
    };
    match instead {
        Some(i) => Some(format!(
            "`{shown}` is {at} on your PATH, {}; write `{}` ({}) instead",
            if why.is_empty() { "but not on the bots'" } else { why },
            shell_word(&name_of(&i)),
            terminal(&i.display().to_string())
        )),
        None if why.is_empty() || (!script && unseen) => Some(format!(
            "`{shown}` is {at} on your PATH, but a bot's programs are looked for in {dirs} only: write its full path, \
             `{}`{}",
            shell_word(&on_path.display().to_string()),
            if unseen { " (its box then shows that file alone: not what it may need beside it)" } else { "" }
        )),
        None => Some(format!(
            "`{shown}` is {at} on your PATH, {why}, and there is no `{shown}` in {dirs}: install one there, or name \
             a program there"
        )),
    }
}

/// The file name of `path`, as a command names a program found on the PATH.
fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Why the script `path` (named `program` in the command) cannot start: its `#!` line names an
/// interpreter the bot does not have (ending in `\r`: Windows line endings; a path of another
/// machine, or one a box does not show), or runs `env` on a program the bot does not find.
fn interpreter_trouble(
    program: &str,
    path: &Path,
    words: &[String],
    folder: Option<&Path>,
    sight: &Sight,
) -> Option<String> {
    let head = crate::files::regular_head(path, 256)?;
    let rest = head.strip_prefix(b"#!")?;
    // As the kernel reads it: the interpreter is the first word (spaces and tabs around it),
    // the rest of the line one argument; a `\r` is part of the word.
    let line = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
    let line = String::from_utf8_lossy(line);
    let line = line.trim_start_matches([' ', '\t']);
    let (interpreter, argument) = line.split_once([' ', '\t']).unwrap_or((line, ""));
    let argument = argument.trim_matches([' ', '\t']);
    let file = terminal(program);
    let crlf = line.ends_with('\r');
    let fix_crlf = format!(
        "the file has Windows line endings: `sed -i 's/\\r$//' {}` removes them (or save it with Unix (LF) line \
         endings, your editor's setting)",
        shell_word(program)
    );
    let named = terminal(interpreter);
    let plain = interpreter.trim_end_matches('\r');
    let name = Path::new(plain).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // (A relative one is the bot's folder's: the kernel finds it from the working directory.)
    let at = folder.unwrap_or(Path::new(".")).join(interpreter);
    if !sight.sees(&at, words, folder) {
        if crlf && interpreter.ends_with('\r') {
            return Some(format!(
                "`{file}` exists, but its `#!` line names `{named}`, which does not exist: {fix_crlf}"
            ));
        }
        let env = match sight.find(&name) {
            Some(_) if !name.is_empty() => format!(" (write `#!/usr/bin/env {}`)", terminal(&name)),
            _ => String::new(),
        };
        let where_ = if at.exists() {
            "which a bot's box does not show (it shows the system's folders and the bot's own)"
        } else {
            "which is not on this machine"
        };
        return Some(format!("`{file}` exists, but its `#!` line names `{named}`, {where_}{env}"));
    }
    if name != "env" {
        // The interpreter is there, but the rest of the line, its one argument, ends in `\r`
        // (`#!/usr/bin/python3 -u\r`: "Unknown option: -\r"). (Not `env -S`, below, which
        // splits its words on any white space, a `\r` among it.)
        return (crlf && !argument.trim_end_matches('\r').is_empty()).then(|| {
            format!(
                "`{file}` exists, but its `#!` line gives `{named}` the argument `{}`, which ends in `\\r`: \
                 {fix_crlf}",
                terminal(argument)
            )
        });
    }
    // `env` looks its argument up on the bot's PATH (`-S` splits it into words first). Without
    // `-S`, a program with arguments (`#!/usr/bin/env python3 -u`) is one word to it, as the
    // kernel passes the rest of the line: no program is named so ("env: 'python3 -u': No such
    // file or directory").
    let words_given = argument.trim_end_matches('\r');
    if !argument.starts_with('-') && words_given.contains([' ', '\t']) {
        let mut split = words_given.split_whitespace();
        let (program, rest) = (split.next().unwrap_or(""), split.collect::<Vec<_>>().join(" "));
        let direct = sight.find(program).map_or(String::new(), |found| {
            format!(
                ", or name the interpreter itself, `#!{} {}`",
                terminal(&found.display().to_string()),
                terminal(&rest)
            )
        });
        let crlf = if crlf { format!("; and {fix_crlf}") } else { String::new() };
        return Some(format!(
            "`{file}` exists, but its `#!` line runs `{}` through `env`, which Linux passes to `env` as one word, a \
             program's name: `env` finds no program named so. Write `#!/usr/bin/env -S {}` (`-S` splits it into \
             words){direct}{crlf}",
            terminal(words_given),
            terminal(&format!("{program} {rest}"))
        ));
    }
    let wanted = match argument.strip_prefix("-S") {
        // (After `-S`, settings `NAME=value` come before the program; after an option, which
        // may take a word of its own (`-u NAME`, `-C DIR`), the line is not checked.)
        Some(split) => split.split_whitespace().find(|w| !w.contains('=')).unwrap_or(""),
        None => argument,
    };
    if wanted.is_empty() || wanted.starts_with('-') || wanted.contains([' ', '\t']) || sight.find(wanted).is_some() {
        return None;
    }
    if crlf {
        return Some(format!(
            "`{file}` exists, but its `#!` line runs `{}` through `env`, which finds no such program: {fix_crlf}",
            terminal(wanted)
        ));
    }
    Some(format!(
        "`{file}` exists, but its `#!` line runs `{}` through `env`, and a bot's programs are looked for in {} only, \
         where there is none",
        terminal(wanted),
        dirs_text(sight)
    ))
}

/// The interpreters whose first argument that is not an option is the script they run.
fn runs_a_script(program: &str) -> bool {
    let name = Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or("");
    ["sh", "bash", "dash", "python", "python3", "node", "ruby", "perl"].contains(&name) || name.starts_with("python3.")
}

/// Why the script an interpreter is to run (`python3 bto.py`) cannot be: it does not exist in
/// `folder`, the bot's, or the current folder where it has none (the interpreter would start
/// and exit at once, every match a crash).
/// Only a word that is plainly a file (a path, or a name with an extension) after options that
/// are known: an option that takes code (`-c`, `-m`, `-e`) or a word of its own (`-W`, `-r`),
/// or that this cannot tell, leaves the command unchecked.
fn script_trouble(words: &[String], folder: Option<&Path>) -> Option<String> {
    let program = words.first()?;
    let here = folder.unwrap_or(Path::new("."));
    if !runs_a_script(program) {
        return None;
    }
    const TAKES_A_WORD: [&str; 12] = [
        "-W",
        "-X",
        "-I",
        "-r",
        "-o",
        "+o",
        "--require",
        "--rcfile",
        "--init-file",
        "--loader",
        "--experimental-loader",
        "--import",
    ];
    let mut rest = words[1..].iter();
    let script = loop {
        let word = rest.next()?;
        if word == "--" {
            break rest.next()?;
        }
        if TAKES_A_WORD.contains(&word.as_str()) {
            rest.next();
            continue;
        }
        match word.strip_prefix('-') {
            // Standard input, or code (`-c`, `-uc`, `-e`, `--eval`…): no script.
            Some("") => return None,
            Some(flags) if flags.starts_with('-') => {
                if ["-eval", "-print", "-command", "-module"].iter().any(|o| flags.starts_with(o)) {
                    return None;
                }
            }
            Some(flags) if flags.contains(['c', 'm', 'e', 'E', 's', 'i', 'p', 'x']) && flags.len() > 1 => return None,
            Some(flags) if ["c", "m", "e", "E", "s", "i", "p"].contains(&flags) => return None,
            Some(_) => {}
            None => break word,
        }
    };
    // Only a script by its extension: a word after an option this cannot tell (`node --loader
    // ts-node/esm`, `python3 -I bot.py data.txt`) is not taken for a missing script.
    const SCRIPTS: [&str; 10] = ["py", "js", "mjs", "cjs", "ts", "sh", "bash", "rb", "pl", "pm"];
    let path = Path::new(script);
    let a_script = path.extension().and_then(|e| e.to_str()).is_some_and(|e| SCRIPTS.contains(&e));
    if !a_script || here.join(path).exists() {
        return None;
    }
    let near = crate::files::near_file(&here.join(path)).map_or(String::new(), |n| {
        let parent = script.rsplit_once('/').map_or(String::new(), |(p, _)| format!("{p}/"));
        format!(": did you mean `{}`?", shell_word(&format!("{parent}{n}")))
    });
    let (script, program) = (terminal(script), terminal(program));
    if folder.is_some() {
        return Some(format!(
            "the script `{script}` that `{program}` is to run does not exist in the bot's folder{near}"
        ));
    }
    // Without a folder of its own, the bot runs in the current one: the command was most likely
    // run from another folder than the bot's.
    let current = std::env::current_dir().map_or_else(
        |_| "the current folder".to_string(),
        |d| format!("{}, the current folder", terminal(&d.display().to_string())),
    );
    let advice = "run this from your bot's folder, or give the script's path from here";
    let advice = match near.strip_prefix(": ") {
        Some(near) => format!("{near} If not, {advice}"),
        None => advice.to_string(),
    };
    Some(format!(
        "the script `{script}` that `{program}` is to run does not exist in {current}, where the bot runs: {advice}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, text: &[u8]) {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn check(dir: &Path, command: &str, sight: &Sight) -> Option<String> {
        trouble(&shell_words::split(command).unwrap(), Some(dir), sight)
    }

    /// A `#!` line ending in `\r`, or naming an interpreter this machine lacks, is named with
    /// its fix; the same script with LF line endings, or a `#!` line naming one there is, the
    /// controls, passes.
    #[test]
    fn a_script_whose_interpreter_cannot_run_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let sight = Sight::boxed();
        script(dir.path(), "crlf.sh", b"#!/bin/sh\r\necho WAIT\r\n");
        script(dir.path(), "crlf.py", b"#!/usr/bin/python3\r\nprint(1)\r\n");
        script(dir.path(), "env.py", b"#!/usr/bin/env python3\r\nprint(1)\r\n");
        script(dir.path(), "brew.py", b"#!/opt/homebrew/bin/python3\nprint(1)\n");
        script(dir.path(), "lf.sh", b"#!/bin/sh\necho WAIT\n");
        script(dir.path(), "envlf.py", b"#!/usr/bin/env python3\nprint(1)\n");
        let crlf = check(dir.path(), "./crlf.sh", &sight).unwrap_or_default();
        assert!(crlf.contains("names `/bin/sh\\r`, which does not exist: the file has Windows line endings"), "{crlf}");
        assert!(crlf.contains("sed -i 's/\\r$//' ./crlf.sh"), "{crlf}");
        let crlf = check(dir.path(), "./crlf.py", &sight).unwrap_or_default();
        assert!(crlf.contains("`/usr/bin/python3\\r`") && crlf.contains("Windows line endings"), "{crlf}");
        let env = check(dir.path(), "./env.py", &sight).unwrap_or_default();
        assert!(env.contains("runs `python3\\r` through `env`") && env.contains("Windows line endings"), "{env}");
        let brew = check(dir.path(), "./brew.py", &sight).unwrap_or_default();
        assert!(brew.contains("names `/opt/homebrew/bin/python3`, which is not on this machine"), "{brew}");
        if Path::new("/usr/bin/python3").exists() {
            assert!(brew.contains("(write `#!/usr/bin/env python3`)"), "{brew}");
        }
        // The interpreter is there, its argument ends in `\r` (sh: "Illegal option -\r").
        script(dir.path(), "arg.sh", b"#!/bin/sh -e\r\necho WAIT\r\n");
        let arg = check(dir.path(), "./arg.sh", &sight).unwrap_or_default();
        assert!(arg.contains("gives `/bin/sh` the argument `-e\\r`") && arg.contains("sed -i"), "{arg}");
        script(dir.path(), "arglf.sh", b"#!/bin/sh -e\necho WAIT\n");
        assert_eq!(check(dir.path(), "./arglf.sh", &sight), None, "the control: LF line endings");
        assert_eq!(check(dir.path(), "./lf.sh", &sight), None, "the control: LF line endings");
        if Path::new("/usr/bin/python3").exists() {
            assert_eq!(check(dir.path(), "./envlf.py", &sight), None, "the control: env finds python3");
        }
    }

    /// An interpreter that is on the machine but outside what a box shows is not the bot's (the
    /// control: without a box, it is).
    #[test]
    fn an_interpreter_a_box_does_not_show_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let interpreter = elsewhere.path().join("python3");
        std::fs::copy("/bin/sh", &interpreter).unwrap();
        let line = format!("#!{}\necho WAIT\n", interpreter.display());
        script(dir.path(), "bot", line.as_bytes());
        let boxed = check(dir.path(), "./bot", &Sight::boxed()).unwrap_or_default();
        assert!(boxed.contains("which a bot's box does not show"), "{boxed}");
        let unboxed = Sight { boxed: false, ..Sight::boxed() };
        assert_eq!(check(dir.path(), "./bot", &unboxed), None, "the control: no box");
    }

    /// A bare name is looked for where the bot looks (not on the user's PATH); an interpreter's
    /// missing script is named, with the file a typo away; the controls pass.
    #[test]
    fn bare_names_and_scripts_are_checked_as_the_bot_runs_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "print(1)\n").unwrap();
        let sight = Sight::boxed();
        let missing = check(dir.path(), "no-such-interpreter-xyz bot.py", &sight).unwrap_or_default();
        assert!(missing.contains("program `no-such-interpreter-xyz` not found in /usr/local/bin, /usr/bin, /bin"));
        let typo = check(dir.path(), "sh -u bto.py", &sight).unwrap_or_default();
        assert!(typo.contains("the script `bto.py` that `sh` is to run does not exist"), "{typo}");
        assert!(typo.contains("did you mean `bot.py`?"), "{typo}");
        assert_eq!(check(dir.path(), "sh -u bot.py", &sight), None, "the control: the script is there");
        assert_eq!(check(dir.path(), "sh -c 'echo WAIT'", &sight), None, "code, not a script");
        assert_eq!(check(dir.path(), "sh -o errexit bot.py", &sight), None, "an option's word is skipped");
        assert_eq!(check(dir.path(), "/bin/sh -- bot.py", &sight), None);
        // Words this cannot tell for scripts (a review found both refused): not checked.
        assert_eq!(check(dir.path(), "sh --loader ts-node/esm bot.py", &sight), None);
        assert_eq!(check(dir.path(), "sh bot.py data.txt", &sight), None);
        let env_s = dir.path().join("envs.py");
        std::fs::write(&env_s, "#!/usr/bin/env -S PYTHONUNBUFFERED=1 sh -u\necho\n").unwrap();
        std::fs::set_permissions(&env_s, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(check(dir.path(), "./envs.py", &sight), None, "env -S: a setting before the program");
        std::fs::write(&env_s, "#!/usr/bin/env -S PYTHONUNBUFFERED=1 no-such-xyz -u\necho\n").unwrap();
        let named = check(dir.path(), "./envs.py", &sight).unwrap_or_default();
        assert!(named.contains("runs `no-such-xyz` through `env`"), "the control: {named}");
        std::fs::write(&env_s, "#!/usr/bin/env -S -u FOO sh -u\necho\n").unwrap();
        assert_eq!(check(dir.path(), "./envs.py", &sight), None, "env -S: an option's word is no program");
        // `env` given a program and its arguments without `-S`: Linux passes them as one word,
        // which names no program. The controls: with `-S`, and the interpreter named itself.
        std::fs::write(&env_s, "#!/usr/bin/env sh -u\necho\n").unwrap();
        let one_word = check(dir.path(), "./envs.py", &sight).unwrap_or_default();
        assert!(one_word.contains("runs `sh -u` through `env`, which Linux passes to `env` as one word"), "{one_word}");
        assert!(one_word.contains("Write `#!/usr/bin/env -S sh -u`"), "{one_word}");
        let sh = sight.find("sh").unwrap().display().to_string();
        assert!(one_word.contains(&format!("or name the interpreter itself, `#!{sh} -u`")), "{one_word}");
        std::fs::write(&env_s, "#!/usr/bin/env -S sh -u\necho\n").unwrap();
        assert_eq!(check(dir.path(), "./envs.py", &sight), None, "the control: env -S");
        std::fs::write(&env_s, "#!/bin/sh -u\necho\n").unwrap();
        assert_eq!(check(dir.path(), "./envs.py", &sight), None, "the control: the interpreter itself");
        let not_exec = {
            std::fs::write(dir.path().join("plain"), "echo WAIT\n").unwrap();
            check(dir.path(), "./plain", &sight).unwrap_or_default()
        };
        assert!(not_exec.contains("has no execute permission: `chmod +x ./plain`"), "{not_exec}");
        assert_eq!(check(dir.path(), "./bobb", &sight).as_deref(), Some("program `./bobb` not found"));
    }

    /// `python` found on the user's PATH as a script (a pyenv shim, which runs
    /// `~/.pyenv/libexec/pyenv`, a folder no box shows) where the bot has `python3`: the hint
    /// names `python3`, not the shim. The controls: a compiled `python` there, for a bot
    /// without a box and without `python3`, is named by its full path; a shim without a
    /// `python3` for the bot is said to be of no use, not suggested.
    #[test]
    fn python_is_python3_for_a_bot() {
        let bots = tempfile::tempdir().unwrap();
        let user = tempfile::tempdir().unwrap();
        script(bots.path(), "python3", b"#!/bin/sh\n");
        script(user.path(), "python", b"#!/usr/bin/env bash\nexec \"$PYENV_ROOT/libexec/pyenv\" exec python \"$@\"\n");
        let sight = Sight { path: bots.path().into(), boxed: true };
        let hint = bare_hint("python", &sight, Some(user.path().as_os_str())).unwrap_or_default();
        let python3 = bots.path().join("python3");
        assert!(hint.contains(&format!("write `python3` ({}) instead", python3.display())), "{hint}");
        assert!(hint.contains("a script (such as a pyenv shim)"), "{hint}");
        let shim = user.path().join("python").display().to_string();
        assert!(!hint.contains(&format!("`{shim}`")), "{hint}");
        let none = Sight { path: user.path().join("nothing").into(), boxed: true };
        let hint = bare_hint("python", &none, Some(user.path().as_os_str())).unwrap_or_default();
        assert!(hint.contains("there is no `python`") && !hint.contains("full path"), "{hint}");
        std::fs::copy("/bin/true", user.path().join("python")).unwrap();
        let plain = Sight { path: user.path().join("nothing").into(), boxed: false };
        let hint = bare_hint("python", &plain, Some(user.path().as_os_str())).unwrap_or_default();
        assert!(hint.contains(&format!("write its full path, `{shim}`")), "{hint}");
    }
}
