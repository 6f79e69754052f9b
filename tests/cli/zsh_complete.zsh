#!/usr/bin/zsh -f
# zsh -f zsh_complete.zsh DIR LINES: for each line of the file LINES, prints what zsh's own
# completion system offers for the line's last word, one per line, sorted, with the completion
# functions of DIR on its fpath, then a line holding only "@@@@" (tests/cli/completion_test.cpp).
# zsh completes only inside its line editor, so this drives an interactive zsh on a
# pseudo-terminal (zsh/zpty): a wrapped compadd prints each match it adds between markers, a
# widget around complete-word prints an end marker once the completion is done, and Ctrl-U
# empties the line for the next. One shell serves every line: a shell started (compinit and all)
# per line took 100 s for the suite's lines on the CI machine.
zmodload zsh/zpty || exit 2
zpty shell zsh -f -i
zpty -w shell "PROMPT= ; RPROMPT= ; bindkey -e; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w shell "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
# Calls that only fill an array (-O, -A, -D) are _arguments' own bookkeeping, not offers. The
# markers are written as "@""@@" and "%%""%" so that the terminal's echo of these lines never
# matches them.
zpty -w shell 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; local -a hits; builtin compadd -A hits "$@"; local hit; for hit in $hits; do print -r -- "@""@@$hit@@""@"; done; builtin compadd "$@"; }'
# What was found is neither listed nor inserted: the line stays as typed, and no list waits for
# a key. comppostfuncs is emptied by every completion, so the widget sets it each time.
zpty -w shell '_test_quiet () { compstate[list]=""; compstate[insert]=""; }'
zpty -w shell '_test_complete () { comppostfuncs=( _test_quiet ); zle complete-word; print -r -- "%%""%done%%%"; }; zle -N _test_complete; bindkey "^I" _test_complete'
local line chunk
while IFS= read -r line; do
  zpty -w -n shell "$line"$'\t'
  zpty -r shell chunk '*%%%done%%%*' || exit 3
  print -r -- "$chunk" | grep -ao '@@@[^@]*@@@' | sed 's/^@@@//; s/@@@$//' | sort -u
  print -r -- '@@@@'
  zpty -w -n shell $'\x15'
done < "$2"
