# Chaos bot: ignores SIGTERM, as does a child it starts, and answers each
# observation with a line that is no move. $1 is a marker.
trap '' TERM
(trap '' TERM; while :; do sleep 1; done) &
while read -r line; do echo nope; done
