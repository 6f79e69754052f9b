#!/usr/bin/zsh -f
# zsh -f zsh_complete.zsh DIR LINE: prints, one per line, sorted, what zsh's own completion
# system offers for the last word of LINE with the completion functions of DIR on its fpath
# (tests/cli/completion_test.cpp). zsh completes only inside its line editor, so this drives an
# interactive zsh on a pseudo-terminal (zsh/zpty): a wrapped compadd prints each match it adds
# between markers, and the shell exits once the completion is done.
zmodload zsh/zpty || exit 2
zpty shell zsh -f -i
zpty -w shell "PROMPT= ; RPROMPT= ; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w shell "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
# Calls that only fill an array (-O, -A, -D) are _arguments' own bookkeeping, not offers. The
# markers are written as "@""@@" so that the terminal's echo of this line never matches them.
zpty -w shell 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; local -a hits; builtin compadd -A hits "$@"; local hit; for hit in $hits; do print -r -- "@""@@$hit@@""@"; done; builtin compadd "$@"; }'
zpty -w shell "bindkey '^I' complete-word; comppostfuncs=( exit )"
zpty -w shell "$2"$'\t'
local chunk
while zpty -r shell chunk; do print -rn -- "$chunk"; done |
  grep -ao '@@@[^@]*@@@' | sed 's/^@@@//; s/@@@$//' | sort -u
