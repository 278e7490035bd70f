#!/usr/bin/env bash
# A test agent whose submission improves over time: an invalid one (header only), a valid weak
# one (every label 0), a link to a host file (never copied), then the right answers. Each stays
# 0.6 s, many times the test's poll interval, so the harness sees every state.
set -eu
out="$SUBMISSION_DIR/submission.csv"
echo "id,label" > "$out"
sleep 0.6
awk -F, 'NR == 1 { print "id,label"; next } { print $1 ",0" }' "$DATA_DIR/test.csv" > "$out.tmp"
mv "$out.tmp" "$out"
sleep 0.6
ln -sf /etc/hostname "$out"
sleep 0.6
rm -f "$out"
awk -F, 'NR == 1 { print "id,label"; next } { print $1 "," ($2 > 0.5 ? 1 : 0) }' \
    "$DATA_DIR/test.csv" > "$out.tmp"
mv "$out.tmp" "$out"
