#!/usr/bin/env python3
"""Writes the files nghttpd serves as the GitHub-shaped upstream of scripts/bench-upstream-rtt,
from a running demo upstream's answers: the user list at `users` (nghttpd ignores the query, so
every `/users?since=0&per_page=N` gets this page) and each listed user's avatar at `u/ID.png`
(the `.png` gives nghttpd's content type, image/png, as GitHub's avatar host sends). The URLs in
the list are rewritten to the two TLS origins the servers under test use: the API's and the
avatar host's (as api.github.com and avatars.githubusercontent.com are two). `/users/{login}`
profiles are not written: a file `users` and a folder `users/` cannot both be in one docroot.

usage: make-docroot.py DEMO_URL DOCROOT API_ORIGIN AVATAR_ORIGIN [PER_PAGE]
"""
import json
import os
import sys
import urllib.request


def fetch(url):
    request = urllib.request.Request(url, headers={"Accept": "application/vnd.github+json", "User-Agent": "make-docroot"})
    with urllib.request.urlopen(request, timeout=30) as response:  # follows the demo's avatar redirects
        return response.read()


def main():
    demo, docroot, api, avatars = sys.argv[1:5]
    per_page = int(sys.argv[5]) if len(sys.argv) > 5 else 30
    users = json.loads(fetch(f"{demo}/users?since=0&per_page={per_page}"))
    os.makedirs(os.path.join(docroot, "u"), exist_ok=True)
    for user in users:
        png = fetch(user["avatar_url"])
        with open(os.path.join(docroot, "u", f"{user['id']}.png"), "wb") as out:
            out.write(png)
        for key, value in user.items():
            if isinstance(value, str) and value.startswith(demo):
                user[key] = api + value[len(demo):]
        user["avatar_url"] = f"{avatars}/u/{user['id']}.png?v=4"
    with open(os.path.join(docroot, "users"), "w") as out:
        json.dump(users, out, separators=(",", ":"))
    print(f"{len(users)} users and avatars in {docroot}")


main()
