# bash completion for segscan(1)                                  -*- shell-script -*-
# Installed by meson into bash-completion's completionsdir; works without bash-completion
# too (source it from ~/.bashrc): _init_completion is used only when present.

_segscan_opts() {
    local common="--json --bytes --max-batch-bytes --help"
    local analysis="--report --html --by --min-bytes --across-topics --include-internal --include-temp --stdin-name
        --since --until --from-offset --to-offset --producer-id --txn-timeout --now
        --group --color --local-time --verbose --quiet --threads --max-memory --progress --no-seek"
    case "$1" in
    dump) echo "$common --files --deep-iteration --print-data-log --skip-record-metadata --max-bytes
        --verify-index-only --index-sanity-check --max-message-size --offsets-decoder
        --transaction-log-decoder --cluster-metadata-decoder --remote-log-metadata-decoder
        --share-group-state-decoder --kafka-version" ;;
    scan|dups|producers|txns) echo "$common $analysis --top --fail-on" ;;
    explain) echo "$common $analysis --value --value-hex --value-contains --key --offset" ;;
    diff) echo "$common --by --by-key --read-committed --stat --max --preview-bytes --include-temp --local-time" ;;
    verify) echo "--json --max-batch-bytes --threads --quiet --list-checks --help" ;;
    coordinator) echo "--group --transactional-id --partitions --json --help" ;;
    export) echo "--fingerprints --output --broker-id --quiet --help" ;;
    groups) echo "--group --topic --partition --since --until --from-offset --to-offset --commits
        --partitions --json --html --local-time --threads --max-memory --include-temp --fail-on --txn-timeout --now
        --quiet --help" ;;
    esac
}

_segscan() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local commands="scan dump dups producers txns explain diff verify coordinator groups export"
    local cmd="" i
    # segscan help COMMAND: a command's options
    if [[ ${words[1]} == help ]]; then
        ((cword == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    for ((i = 1; i < cword; i++)); do
        case " $commands " in *" ${words[i]} "*) cmd=${words[i]}; break ;; esac
    done

    case "$prev" in
    --by)
        if [[ $cmd == diff ]]; then
            COMPREPLY=($(compgen -W "offset content value key key+value" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "value key key+value" -- "$cur"))
        fi
        return ;;
    --bytes) COMPREPLY=($(compgen -W "utf8 hex base64" -- "$cur")); return ;;
    --color|--colour|--progress) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --fail-on)
        if [[ $cmd == groups ]]; then
            COMPREPLY=($(compgen -W "redelivered skipped rewind redelivered,skipped,rewind" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "dups gaps open-txn hanging holes redelivered skipped rewind dups,gaps,open-txn" -- "$cur"))
        fi
        return ;;
    --report|--html|--output|-o) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --max-bytes|--max-batch-bytes|--min-bytes|--since|--until|--from-offset|--to-offset|--producer-id|\
    --txn-timeout|--now|--top|--max|--preview-bytes|--value|--value-hex|--value-contains|--key|--offset|--group|\
    --transactional-id|--partitions|--broker-id|--max-message-size|--kafka-version|--threads|--max-memory|--topic|--partition)
        return ;;
    esac

    if [[ $cur == -* ]]; then
        if [[ -z $cmd ]]; then
            COMPREPLY=($(compgen -W "--help --version $(_segscan_opts scan)" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_segscan_opts "$cmd")" -- "$cur"))
        fi
        return
    fi
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        ((cword == 1)) && COMPREPLY+=($(compgen -W "help" -- "$cur"))
    fi
    [[ $cmd == coordinator ]] && return
    # segment and index files, and directories (partition and log directories); for dump also
    # the text files of a log directory
    local IFS=$'\n'
    if [[ $cmd == dump ]]; then
        # @(...) is an extglob pattern: bash-completion turns extglob on, a bare bash does
        # not (this file works without bash-completion), so on for this line only
        local extglob_was=1
        shopt -q extglob || { extglob_was=0; shopt -s extglob; }
        COMPREPLY+=($(compgen -f -X '!*@(.log|.index|.timeindex|.txnindex|.snapshot|.checkpoint|-checkpoint|partition.metadata|meta.properties|quorum-state|.kafka_cleanshutdown)' -- "$cur"))
        ((extglob_was)) || shopt -u extglob
    else
        COMPREPLY+=($(compgen -f -X '!*.log' -- "$cur"))
        # the analysis commands read exports (segscan export's .parquet files) as inputs too
        case $cmd in
        "" | scan | dups | producers | txns | explain | groups) COMPREPLY+=($(compgen -f -X '!*.parquet' -- "$cur")) ;;
        esac
    fi
    COMPREPLY+=($(compgen -d -- "$cur"))
    compopt -o filenames 2>/dev/null
}
complete -F _segscan segscan
