"""A well-behaved JSON-lines bot: the free direction with the longest run ahead."""
from common import good_move, observations, say

for obs in observations():
    say(good_move(obs))
