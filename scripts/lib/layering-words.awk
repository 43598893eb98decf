# SPDX-License-Identifier: GPL-2.0
# Run by layering.sh (awk -v list=FILES -f): file<TAB>identifier of every
# word of each file named in the file list, comments and string and
# character literals left out; ".name" for a member after "->" or ".".
BEGIN {
	q = sprintf("%c", 39)
	opener = "/\\*|//|\"|" q
	dq = "^([^\"\\\\]|\\\\.)*\""
	sq = "^([^" q "\\\\]|\\\\.)*" q
	while ((getline f < list) > 0) {
		incomment = 0
		while ((getline line < f) > 0)
			words(f, strip(line))
		close(f)
	}
}
function strip(line,    out, tok) {
	out = ""
	while (line != "") {
		if (incomment) {
			if (!(i = index(line, "*/")))
				return out
			line = substr(line, i + 2)
			incomment = 0
			continue
		}
		if (!match(line, opener))
			return out line
		out = out substr(line, 1, RSTART - 1) " "
		tok = substr(line, RSTART, RLENGTH)
		line = substr(line, RSTART + RLENGTH)
		if (tok == "//")
			return out
		if (tok == "/*")
			incomment = 1
		else if (match(line, tok == q ? sq : dq))
			line = substr(line, RLENGTH + 1)
		else
			line = ""
	}
	return out
}
function words(f, code,    w) {
	while (match(code, /[A-Za-z0-9_]+/)) {
		w = substr(code, RSTART, RLENGTH)
		if (substr(code, 1, RSTART - 1) ~ /(->|\.)[ \t]*$/)
			w = "." w
		code = substr(code, RSTART + RLENGTH)
		if (w !~ /^[0-9]/ && !((f, w) in seen)) {
			seen[f, w] = 1
			print f "\t" w
		}
	}
}
