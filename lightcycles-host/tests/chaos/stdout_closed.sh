# Chaos bot: closes its stdout, then reads on without a word. $1 is a marker.
exec 1>&-
while read -r line; do :; done
