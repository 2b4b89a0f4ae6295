#!/usr/bin/env bash
# meson install into a scratch DESTDIR, then build a tiny program against the
# installed libsegscan through pkg-config and run it on a corpus segment.
set -eu
build=$1 corpus=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --no-rebuild >/dev/null
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root=$dest$prefix
pcdir=$(dirname "$(find "$root" -name segscan.pc | head -1)")
for f in bin/segscan share/man/man1/segscan.1 include/segscan/segscan.h share/doc/segscan/json.md share/doc/segscan/json-schema.json share/doc/segscan/segscan-output.schema.json share/doc/segscan/design-notes.md; do
    [ -e "$root/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
find "$root" -name 'libsegscan.so*' | grep -q . || { echo "FAIL: no shared library"; exit 1; }
find "$root" -name 'libsegscan.a' | grep -q . || { echo "FAIL: no static library"; exit 1; }
find "$root" -path '*zsh/site-functions/_segscan' | grep -q . || { echo "FAIL: zsh completion"; exit 1; }
find "$root" -path '*vendor_completions.d/segscan.fish' | grep -q . || { echo "FAIL: fish completion"; exit 1; }
find "$root" -path '*completions/segscan' | grep -q . || { echo "FAIL: bash completion"; exit 1; }
cat > "$dest/count.c" <<'C'
#include <stdio.h>
#include <segscan/segscan.h>
int main(int argc, char **argv) {
    ss_segment *s; ss_error e; ss_walker *w; ss_event ev; int n = 0;
    if (argc < 2 || ss_segment_open(argv[1], &s, &e) != SS_E_OK) return 2;
    if (!(w = ss_walker_new(s, UINT64_MAX))) return 2;
    while (ss_walker_next(w, &ev) != SS_EV_END) n += ev.kind == SS_EV_BATCH;
    ss_walker_free(w);
    printf("%d %s\n", n, ss_version());
    ss_segment_close(s);
    return 0;
}
C
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --define-variable=prefix="$root" --cflags --libs segscan)
cc -o "$dest/count" "$dest/count.c" $flags
out=$(LD_LIBRARY_PATH=$(dirname "$(find "$root" -name 'libsegscan.so' | head -1)") "$dest/count" "$corpus/gen/lab/payments-0/00000000000000000000.log")
# the lab segment holds two batches (corpus SCENARIOS.tsv)
case $out in "2 "*) echo "test_install: ok ($out)";; *) echo "FAIL: program printed '$out'"; exit 1;; esac
