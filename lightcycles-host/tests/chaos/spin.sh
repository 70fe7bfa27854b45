# Chaos bot: an endless loop that never reads or answers. $1 is a marker.
while :; do :; done
