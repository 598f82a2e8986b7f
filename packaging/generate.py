#!/usr/bin/env python3
"""The man page and shell completions, made from the program itself.

usage: packaging/generate.py SEGUE man                       > segue.1
       packaging/generate.py SEGUE completion bash|zsh|fish  > the script

Everything comes from what the binary says: `--experimental-dump-help` (the
argument parser's commands, flags and options, the output options' included)
and --help. The man page holds the top-level help and one section per
subcommand, so it can't drift from --help.
"""
import json
import subprocess
import sys


def run(segue, *args):
    return subprocess.run([segue, *args], check=True, capture_output=True, text=True).stdout


def commands(segue):
    """(name, abstract) of each subcommand, and each one's flags, from the dump."""
    tree = json.loads(run(segue, "--experimental-dump-help"))["command"]
    found = []
    for sub in tree.get("subcommands", []):
        name = sub["commandName"]
        if name == "help":
            continue
        flags = []
        for argument in sub.get("arguments", []):
            for option in argument.get("names", []):
                if option["kind"] in ("long", "longWithSingleDash"):
                    flags.append(("--" + option["name"], argument["kind"] == "option"))
                elif option["kind"] == "short":
                    flags.append(("-" + option["name"], argument["kind"] == "option"))
        found.append((name, sub.get("abstract", ""), sorted(set(flags))))
    return found


def roff(text):
    """Plain text made safe for roff: backslashes, and dots or quotes starting a line."""
    lines = []
    for line in text.replace("\\", "\\e").splitlines():
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def man(segue):
    version = run(segue, "--version").strip()
    out = [f'.TH SEGUE 1 "" "segue {version}" "User Commands"',
           ".SH NAME", "segue \\- join video clips into one gapless MP4, with cuts, fades or slides",
           ".SH SYNOPSIS", ".B segue", "[\\fISUBCOMMAND\\fR] [\\fIOPTIONS\\fR] \\fIINPUTS\\fR...",
           ".SH DESCRIPTION", ".nf", roff(run(segue, "--help")), ".fi"]
    for name, abstract, _ in commands(segue):
        out += [f'.SH "SEGUE {name.upper()}"', roff(abstract), ".PP", ".nf", roff(run(segue, name, "--help")), ".fi"]
    out += [".SH EXIT STATUS", "0 done; 1 failed while stitching; 2 bad usage or bad inputs (nothing written);",
            "130/143 stopped by SIGINT/SIGTERM (nothing written).",
            ".SH SEE ALSO", "ffmpeg(1), ffprobe(1); /usr/share/doc/segue/README.md"]
    return "\n".join(out) + "\n"


def completion_bash(segue):
    cmds = commands(segue)
    names = " ".join(name for name, _, _ in cmds)
    cases = []
    for name, _, flags in cmds:
        cases.append(f'    {name}) flags="{" ".join(flag for flag, _ in flags)}" ;;')
    valued = " ".join(sorted({flag for _, _, flags in cmds for flag, takes in flags if takes}))
    stitch_flags = next(" ".join(f for f, _ in flags) for name, _, flags in cmds if name == "stitch")
    return f"""# bash completion for segue (made from the program's own help)
_segue() {{
  local cur prev command flags
  cur=${{COMP_WORDS[COMP_CWORD]}}
  prev=${{COMP_WORDS[COMP_CWORD-1]}}
  command=stitch
  if (( COMP_CWORD > 1 )); then
    case " {names} " in *" ${{COMP_WORDS[1]}} "*) command=${{COMP_WORDS[1]}} ;; esac
  elif [[ $cur != -* ]]; then
    COMPREPLY=($(compgen -W "{names}" -- "$cur") $(compgen -f -- "$cur"))
    return
  fi
  case " {valued} " in *" $prev "*) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
  case $command in
{chr(10).join(cases)}
    *) flags="{stitch_flags}" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags --help" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _segue segue
"""


def completion_zsh(segue):
    cmds = commands(segue)
    lines = ["#compdef segue", "# zsh completion for segue (made from the program's own help)", "_segue() {",
             "  local -a subcommands flags", "  subcommands=("]
    lines += [f"    '{name}:{abstract.replace(chr(39), '')}'" for name, abstract, _ in cmds]
    lines += ["  )", "  local command=stitch", "  if (( CURRENT > 2 )) && (( ${subcommands[(I)${words[2]}:*]} )); then",
              "    command=${words[2]}", "  elif (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then",
              "    _describe 'subcommand' subcommands; _files; return", "  fi", "  case $command in"]
    for name, _, flags in cmds:
        lines.append(f"    {name}) flags=({' '.join(flag for flag, _ in flags)} --help) ;;")
    lines += ["  esac", "  if [[ $PREFIX == -* ]]; then compadd -a flags; else _files; fi", "}", '_segue "$@"']
    return "\n".join(lines) + "\n"


def completion_fish(segue):
    cmds = commands(segue)
    names = " ".join(name for name, _, _ in cmds)
    lines = ["# fish completion for segue (made from the program's own help)",
             f"complete -c segue -n 'not __fish_seen_subcommand_from {names}' -a '{names}'"]
    for name, abstract, flags in cmds:
        condition = f"__fish_seen_subcommand_from {name}"
        if name == "stitch":
            condition = f"__fish_seen_subcommand_from stitch; or not __fish_seen_subcommand_from {names}"
        for flag, takes in flags:
            option = f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}"
            lines.append(f"complete -c segue -n '{condition}' {option}" + (" -r" if takes else ""))
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    segue, what = argv[0], argv[1]
    if what == "man":
        sys.stdout.write(man(segue))
    elif what == "completion" and len(argv) == 3 and argv[2] in ("bash", "zsh", "fish"):
        sys.stdout.write({"bash": completion_bash, "zsh": completion_zsh, "fish": completion_fish}[argv[2]](segue))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
