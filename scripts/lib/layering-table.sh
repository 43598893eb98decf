# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by layering.sh: the two list-tables of the document it checks,
# "Layers of module/, top to bottom" and "Calls that go back up", read
# as rows.  layering.sh sets tmp, table and table_name before it calls
# read_layer_tables.
# shellcheck disable=SC2154

# The rows of the list-table titled $1 of the document, one a line, cells
# apart by tabs, a cell's lines joined; first "columns" and the header
# row.  A cell starts with "- " at the column of its row's first "- ".
list_table() {
	awk -v title="$1" '
		function flush(   i, row) {
			if (!ncells)
				return
			row = cell[1]
			for (i = 2; i <= ncells; i++)
				row = row "\t" cell[i]
			print (nrows++ < headers ? "columns" : "row") "\t" row
			ncells = 0
		}
		function trim(s) {
			gsub(/^[ \t]+|[ \t]+$/, "", s)
			return s
		}
		/^\.\. list-table::/ {
			flush()
			intable = trim(substr($0, 16)) == title
			headers = nrows = ncells = 0
			found += intable
			next
		}
		!intable { next }
		/^[^ \t]/ { flush(); intable = 0; next }
		/^[ \t]*$/ { next }
		ncells == 0 && nrows == 0 && /^[ \t]+:header-rows:/ {
			headers = trim(substr($0, index($0, ":header-rows:") + 13))
			next
		}
		match($0, /^[ \t]*\* +-( |$)/) {
			flush()
			dash = RLENGTH - ($0 ~ /^[ \t]*\* +- / ? 1 : 0)
			cell[ncells = 1] = trim(substr($0, RLENGTH + 1))
			next
		}
		match($0, /^[ \t]*-( |$)/) && ncells &&
		    index($0, "-") == dash {
			cell[++ncells] = trim(substr($0, RLENGTH + 1))
			next
		}
		ncells { cell[ncells] = trim(cell[ncells] " " trim($0)) }
		END {
			flush()
			if (!found)
				print "missing"
		}' "$table"
}


# read_layer_tables: $tmp/layer-of and $tmp/upcall-rows from the
# document; what is wrong with its tables, in $tmp/fail (made anew).
read_layer_tables() {
	: > "$tmp/fail"
	layers_title='Layers of module/, top to bottom'
	upcalls_title='Calls that go back up'
	for title in "$layers_title" "$upcalls_title"; do
		list_table "$title" > "$tmp/table"
		if grep -q '^missing$' "$tmp/table"; then
			echo "layering: $table_name has no list-table \"$title\"" \
				>> "$tmp/fail"
			continue
		fi
		case $title in
		"$layers_title")
			want='layer	files	what they hold'
			out=$tmp/layers
			;;
		*)
			want='from	to	why'
			out=$tmp/upcalls
			;;
		esac
		got=$(sed -n 's/^columns	//p' "$tmp/table")
		if [ "$got" != "$want" ]; then
			echo "layering: $table_name: \"$title\" has columns" \
				"\"$(echo "$got" | sed 's/	/ | /g')\", not" \
				"\"$(echo "$want" | sed 's/	/ | /g')\" (and :header-rows: 1)" \
				>> "$tmp/fail"
			continue
		fi
		sed -n 's/^row	//p' "$tmp/table" > "$out"
	done
	[ -f "$tmp/layers" ] || : > "$tmp/layers"
	[ -f "$tmp/upcalls" ] || : > "$tmp/upcalls"

	# layer<TAB>file or glob, and from<TAB>to<TAB>why, from the rows.
	awk -F '\t' -v table="$table_name" -v layerof="$tmp/layer-of" \
		-v rows="$tmp/upcall-rows" '
		function literals(s, out,    n) {
			n = 0
			while (match(s, /``[^`]+``/)) {
				out[++n] = substr(s, RSTART + 2, RLENGTH - 4)
				s = substr(s, RSTART + RLENGTH)
			}
			return n
		}
		FILENAME == ARGV[1] {
			if ($1 !~ /^[0-9]+$/) {
				print "layering: " table ": layer \"" $1 "\" is not a number" \
					> "/dev/stderr"
				next
			}
			n = literals($2, file)
			for (i = 1; i <= n; i++)
				print $1 "\t" file[i] > layerof
			next
		}
		{
			if (literals($1, a) != 1 || literals($2, b) != 1) {
				print "layering: " table ": a call back up names one file" \
					" from and one to, not \"" $1 "\" -> \"" $2 "\"" \
					> "/dev/stderr"
				next
			}
			print a[1] "\t" b[1] "\t" $3 > rows
		}' "$tmp/layers" "$tmp/upcalls" 2>> "$tmp/fail"
	: >> "$tmp/layer-of"
	: >> "$tmp/upcall-rows"
}
