"""Input formats: public QA records read as logicscore records.

`datasets` parses HotpotQA, 2WikiMultihopQA and MuSiQue records into `items` (their gold
hops, written with the fixed helpers of `text`); `reply` reads the short answer a reply
states on its last "Answer: X" line.
"""
