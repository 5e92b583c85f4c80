#!/usr/bin/env bash
# backup.sh DIR: dump the site's database into DIR (pg_dump's custom format, safe
# while the site serves), keep RIICHI_BACKUP_DAYS days of dumps, and fail loudly.
# A SQLite site: `riichi backup FILE --db sqlite:///...` instead.
set -euo pipefail
dir=${1:?usage: backup.sh DIR}
mkdir -p "$dir"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
tmp="$dir/.riichi-$stamp.dump.part"
pg_dump -Fc -f "$tmp"
# a dump that pg_restore cannot list is no backup
pg_restore --list "$tmp" >/dev/null
mv "$tmp" "$dir/riichi-$stamp.dump"
find "$dir" -name 'riichi-*.dump' -mtime +"${RIICHI_BACKUP_DAYS:-14}" -delete
echo "backed up to $dir/riichi-$stamp.dump"
