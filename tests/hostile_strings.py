"""Strings a record may carry (ids, meta values, entity names, signatures) that must reach
every medium a person opens inert: markdown, HTML, JUnit XML and the terminal. One list, used
by the escaping tests of every renderer."""

from __future__ import annotations

HOSTILE = (
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    "\"><svg onload=alert(1)>",
    "a | b | c",
    "line one\nline two",
    "carriage\rreturn",
    "```\nfenced\n```",
    "`tick` and ~~strike~~ and **bold** [link](javascript:alert(1))",
    "\x1b]0;pwned\x07",
    "\x1b[2J\x1b[31mred",
    "\u202eevil\u202c",
    "zero\u200bwidth",
    "ctrl\x01\x02\x0b\x0c\x7f",
    "&amp; &lt; &#x3C; ]]> <![CDATA[x]]>",
    "{{ 7*7 }} {% raw %}",
    "emoji \U0001F600 and a NUL-free tail",
)
