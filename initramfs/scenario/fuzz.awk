# SPDX-License-Identifier: GPL-2.0
# The fuzz's inputs (fuzz.sh's gen_inputs): each line of the input (the
# fixed ones) made malformed if it is not, then the random ones.
#   awk -v count=COUNT -v seed=SEED -v all="KHZ..." -f fuzz.awk
function r(n) { return int(rand() * n) }
# n copies of the digit c, built in one go (awk concatenation in a
# loop is quadratic, and slow in the guest)
function many(c, n,   s) {
	s = sprintf("%0" n "d", 0)
	gsub(/0/, c, s)
	return s
}
# Never a well-formed table frequency.
function malformed(s,   v) {
	v = s
	sub(/\\n$/, "", v)
	if (v ~ /^[0-9]+$/ && length(v) <= 16 &&
	    (" " all " ") ~ (" " (v + 0) " "))
		s = s "x"
	return s
}
{ print malformed($0) }
END {
	srand(seed)
	nf = split(all, freq, " ")
	for (i = 0; i < 256; i++)
		esc[i] = sprintf("\\0%03o", i)
	# too long, whatever the bytes
	print many("8", 17); print many("8", 64)
	print many("0", 4089) freq[nf]; print many("8", 4096)
	print many("1", 8000)
	stray = "-+ .,xk/;#=_"
	set = "abcxyzXYZ0123456789 _+-.:"
	for (i = 1; i <= count; i++) {
		k = i % 5
		s = ""
		if (k == 0) {
			# random bytes, escaped; never digits only
			n = r(40) + 1
			for (j = 0; j < n; j++)
				s = s esc[r(256)]
			if (s ~ /^(\\0(06[0-7]|07[01]|012))+$/)
				s = s "x"
			print s
			continue
		} else if (k == 1) {
			# a number, maybe with a newline
			s = r(2 * freq[nf] + 1) (r(2) ? "\\n" : "")
		} else if (k == 2) {
			# a table frequency with a stray byte in it
			f = freq[r(nf) + 1]
			p = r(length(f) + 1)
			s = substr(f, 1, p) \
			    substr(stray, r(length(stray)) + 1, 1) \
			    substr(f, p + 1)
		} else if (k == 3) {
			# printable garbage
			n = r(30) + 1
			for (j = 0; j < n; j++)
				s = s substr(set, r(length(set)) + 1, 1)
		} else {
			# a table frequency behind zeros: too long
			s = sprintf("%0" (17 + r(20)) "d", freq[r(nf) + 1])
		}
		print malformed(s)
	}
}
