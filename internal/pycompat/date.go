package pycompat

import (
	"regexp"
	"strings"
	"sync"
	"time"
)

// dateFormats are Django's DATE_INPUT_FORMATS, as Python's strptime
// reads them: %Y four digits, %m and %d one or two (%d also a space and
// a digit), %y two, %b and %B a month's name in English (any case), a
// space any run of whitespace; the whole text must match. They are
// compiled when a date is first read.
var dateFormats = sync.OnceValue(func() []*regexp.Regexp {
	const (
		d    = `\p{Nd}`
		Y    = `(?P<Y>` + d + d + d + d + `)`
		m    = `(?P<m>1[0-2]|0[1-9]|[1-9])`
		day  = `(?P<d>3[01]|[12]` + d + `|0[1-9]|[1-9]| [1-9])`
		y    = `(?P<y>` + d + d + `)`
		b    = `(?P<b>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)`
		B    = `(?P<B>january|february|march|april|may|june|july|august|september|october|november|december)`
		sp   = `[\pZ\t\n\v\f\r\x1c-\x1f\x85]+`
		left = `(?i)^`
	)
	var out []*regexp.Regexp
	for _, f := range []string{
		Y + "-" + m + "-" + day, // %Y-%m-%d
		m + "/" + day + "/" + Y, // %m/%d/%Y
		m + "/" + day + "/" + y, // %m/%d/%y
		b + sp + day + sp + Y,   // %b %d %Y
		b + sp + day + "," + sp + Y,
		day + sp + b + sp + Y,
		day + sp + b + "," + sp + Y,
		B + sp + day + sp + Y,
		B + sp + day + "," + sp + Y,
		day + sp + B + sp + Y,
		day + sp + B + "," + sp + Y,
	} {
		out = append(out, regexp.MustCompile(left+f+`$`))
	}
	return out
})

// DjangoDate reads s as Django's forms.DateField does (stripped, then
// DATE_INPUT_FORMATS in order), and returns the date; ok is false where
// Django answers "Enter a valid date.".
func DjangoDate(s string) (date time.Time, ok bool) {
	s = Strip(s)
	for _, re := range dateFormats() {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		var year, month, dayOf int
		for i, name := range re.SubexpNames() {
			switch v := m[i]; name {
			case "Y":
				year = number(v)
			case "y":
				if year = number(v); year < 69 {
					year += 2000
				} else {
					year += 1900
				}
			case "m":
				month = number(v)
			case "d":
				dayOf = number(strings.TrimSpace(v))
			case "b", "B":
				month = monthOf(v)
			}
		}
		t := time.Date(year, time.Month(month), dayOf, 0, 0, 0, 0, time.UTC)
		if t.Day() != dayOf || t.Month() != time.Month(month) {
			return time.Time{}, false // Python's date() refuses Feb 30
		}
		return t, true
	}
	return time.Time{}, false
}

// number is the value of a run of decimal digits of any script.
func number(s string) int {
	n := 0
	for _, r := range s {
		d, _ := digitValue(r)
		n = 10*n + d
	}
	return n
}

// monthOf is the number of an English month's name or its abbreviation.
func monthOf(name string) int {
	name = strings.ToLower(name[:3])
	for m := time.January; m <= time.December; m++ {
		if strings.ToLower(m.String()[:3]) == name {
			return int(m)
		}
	}
	return 0
}
