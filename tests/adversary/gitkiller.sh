#!/bin/sh
# A `git` for duelmail to find first on its PATH: runs the real git, and at the N-th call SIGKILLs the duelmail
# process that called it, once git is done (`after`), or has a rebase stop half-way first (`rebase`: the rebase
# runs an `--exec` that kills the caller and fails, so git leaves the rebase in progress). A shell script, not
# Python: a sync makes some twenty git calls, and each would start an interpreter.
#
# Environment: DM_REAL_GIT (the real binary), DM_GIT_CALLS (a file counting the calls, naming each by its verb),
# DM_GIT_KILL_AT (N; 0: never), DM_GIT_KILL_HOW (after | rebase); DM_GIT_FROM (a path: only the calls made once
# it exists count, e.g. the file a command signs).
[ "$1" = "-C" ] || exec "$DM_REAL_GIT" "$@"  # git's own children (upload-pack...): duelmail always names the folder
[ -z "$DM_GIT_FROM" ] || [ -e "$DM_GIT_FROM" ] || exec "$DM_REAL_GIT" "$@"
printf '%s %s\n' "$1" "$3" >> "$DM_GIT_CALLS"
n=$(wc -l < "$DM_GIT_CALLS")
[ "$n" -eq "${DM_GIT_KILL_AT:-0}" ] || exec "$DM_REAL_GIT" "$@"
caller=$PPID
if [ "$DM_GIT_KILL_HOW" = rebase ] && [ "$3" = rebase ]; then
    dir=$2
    shift 3
    "$DM_REAL_GIT" -C "$dir" rebase --exec "kill -9 $caller; exit 1" "$@"
else
    "$DM_REAL_GIT" "$@"
fi
rc=$?
kill -9 "$caller"
exit $rc
