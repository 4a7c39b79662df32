#!/usr/bin/env bash
# The classes a solve by classes has finished so far, in order of completion: time the file
# was written, the class, and the file's size in bytes (its value classes' DFAs).
# Usage: results/breakthrough/class_progress.sh DIR
set -eu
ls -ltr --time-style=+%Y-%m-%dT%H:%M:%S "$1" | awk 'NR > 1 && $NF ~ /^class-/ { c = $NF; sub(/^class-/, "", c); sub(/\.dfas$/, "", c); print $6, c, $5 }'
