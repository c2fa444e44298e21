"""``tcgtui serve``: a study served to web browsers with textual-serve, one app process per participant.

The server (``server``) hands each participant a signed link (``tokens``); the app itself runs in a
process forked by a zygote that has already imported it (``zygote``), reached by a tiny launcher
(``launch``) that textual-serve starts per browser connection.  What a participant runs is named in
one place (``join``).
"""
