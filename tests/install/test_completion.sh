#!/usr/bin/env bash
# Exercise the bash completion: source it in a bash without bash-completion's
# helpers and ask for completions of a few prefixes.
set -u
script=$1
fail=0 n=0
source "$script"
complete -p segscan >/dev/null || { echo "FAIL: no completion registered"; exit 1; }

comp() { # words..., the last one is being completed
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    _segscan segscan "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}"
}
expect() { # description, needle, output
    n=$((n + 1))
    if ! grep -qx -- "$2" <<<"$3"; then echo "FAIL: $1: '$2' not offered"; fail=$((fail + 1)); fi
}
refuse() {
    n=$((n + 1))
    if grep -qx -- "$2" <<<"$3"; then echo "FAIL: $1: '$2' offered"; fail=$((fail + 1)); fi
}
out=$(comp segscan d)
expect "commands" dump "$out"; expect "commands" dups "$out"; expect "commands" diff "$out"
refuse "commands" scan "$out"
out=$(comp segscan dump --deep)
expect "dump options" --deep-iteration "$out"
out=$(comp segscan dups --by "")
expect "--by values" key+value "$out"; refuse "--by values of dups" offset "$out"
out=$(comp segscan diff --by "")
expect "--by values of diff" offset "$out"
out=$(comp segscan scan --bytes b)
expect "--bytes values" base64 "$out"
out=$(comp segscan --color "")
expect "--color values" never "$out"
out=$(comp segscan explain --value-con)
expect "explain options" --value-contains "$out"
out=$(comp segscan txns --local)
expect "analysis options" --local-time "$out"
out=$(comp segscan diff --local)
expect "diff options" --local-time "$out"
out=$(comp segscan dump --local)
refuse "dump options" --local-time "$out"
echo "test_completion: $n checks, $fail failed"
exit $((fail > 0))
