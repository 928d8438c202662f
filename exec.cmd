@rem npm runs scripts through cmd.exe on Windows, which has no "exec": the "start" script
@rem says "exec node ..." so POSIX shells hand npm's signals straight to node. This runs it.
@node %*
