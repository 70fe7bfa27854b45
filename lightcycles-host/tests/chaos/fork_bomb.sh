# Chaos bot: starts 40 children that never end (a fork bomb limited to a few
# dozen, so that it is safe where no process cap applies, as under root),
# then reads its observations and never answers. $1 is the test's marker:
# every child is a copy of this shell and carries it in its command line.
i=0
while [ $i -lt 40 ]; do
    (while :; do sleep 1; done) &
    i=$((i + 1))
done
while read -r line; do :; done
