package formats

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Output is an output format: ISO 8601 (the zero value), None, or a
// strftime pattern.
type Output struct {
	none bool
	// pattern is the strftime pattern's directives, nil for ISO 8601.
	pattern []directive
}

// ParseOutput reads a format= or *_FORMAT: ISO8601 in any case, "" (the
// default, ISO 8601), None, or a strftime pattern of the directives
// Python reads and writes that the framework knows.
func ParseOutput(s string) (Output, error) {
	switch {
	case s == "" || strings.EqualFold(s, ISO8601):
		return Output{}, nil
	case s == None:
		return Output{none: true}, nil
	}
	ds, err := parsePattern(s)
	return Output{pattern: ds}, err
}

// ISO reports ISO 8601, isoformat().
func (o Output) ISO() bool { return !o.none && o.pattern == nil }

// None reports the format None: the value as it is.
func (o Output) None() bool { return o.none }

// Strftime writes t as Python's strftime of the pattern; naive leaves %z
// empty, as for a naive datetime.
func (o Output) Strftime(t time.Time, naive bool) string {
	return strftime(t, o.pattern, naive)
}

// Inputs are input formats, tried in order; the zero value is
// [ISO8601].
type Inputs struct {
	list []Input
	// humanized is DRF's wording of them in its message.
	humanized string
}

// Input is one input format: ISO 8601 (the zero value) or a strptime
// pattern.
type Input struct{ re *regexp.Regexp }

// parseInputs reads input_formats= or *_INPUT_FORMATS: each ISO8601 in
// any case, or a strptime pattern; iso is DRF's wording of ISO 8601 for
// the field's type.
func parseInputs(formats []string, iso string) (Inputs, error) {
	in := Inputs{list: make([]Input, 0, len(formats))}
	for _, p := range formats {
		if strings.EqualFold(p, ISO8601) {
			in.list = append(in.list, Input{})
			continue
		}
		ds, err := parsePattern(p)
		if err != nil {
			return Inputs{}, err
		}
		in.list = append(in.list, Input{strptime(ds)})
	}
	// DRF's humanize_datetime: ISO_8601 replaced as written (lower-case),
	// then humanize_strptime.
	h := strings.ReplaceAll(strings.Join(formats, ", "), ISO8601, iso)
	for _, m := range humanized {
		h = strings.ReplaceAll(h, m[0], m[1])
	}
	in.humanized = h
	return in, nil
}

// IsSet reports inputs other than the zero value's.
func (in Inputs) IsSet() bool { return in.list != nil }

// List returns the formats in order.
func (in Inputs) List() []Input {
	if in.list == nil {
		return []Input{{}}
	}
	return in.list
}

// Humanized is DRF's wording of the formats in its "has wrong format"
// messages ("DD [Jan-Dec] YYYY").
func (in Inputs) Humanized() string { return in.humanized }

// ISO reports ISO 8601.
func (p Input) ISO() bool { return p.re == nil }

// Strptime reads s as Python's datetime.strptime of the pattern: the
// wall time (fields the pattern does not hold are 1900-01-01 00:00:00)
// as UTC, the %z offset in seconds, and whether it had one; false when
// the text does not match or names no date that exists.
func (p Input) Strptime(s string) (wall time.Time, offset int, aware, ok bool) {
	return strptimeRead(p.re, s)
}

// directive is one piece of a strftime pattern: a %-directive's letter,
// or text.
type directive struct {
	verb byte
	text string
}

// strptimeRE are Python's _strptime regular expressions of the
// directives the framework reads and writes.
var strptimeRE = map[byte]string{
	'Y': `(?P<Y>\d\d\d\d)`,
	'y': `(?P<y>\d\d)`,
	'm': `(?P<m>1[0-2]|0[1-9]|[1-9])`,
	'd': `(?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9])`,
	'H': `(?P<H>2[0-3]|[0-1]\d|\d)`,
	'I': `(?P<I>1[0-2]|0[1-9]|[1-9])`,
	'M': `(?P<M>[0-5]\d|\d)`,
	'S': `(?P<S>6[0-1]|[0-5]\d|\d)`,
	'f': `(?P<f>[0-9]{1,6})`,
	'p': `(?P<p>am|pm)`,
	'z': `(?P<z>[+-]\d\d:?[0-5]\d(?::?[0-5]\d(?:\.\d{1,6})?)?|(?-i:Z))`,
	'b': `(?P<b>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)`,
	'B': `(?P<B>january|february|march|april|may|june|july|august|september|october|november|december)`,
	'%': `%`,
}

// humanized is DRF's humanize_strptime mapping, in its order.
var humanized = [][2]string{{"%Y", "YYYY"}, {"%y", "YY"}, {"%m", "MM"}, {"%b", "[Jan-Dec]"}, {"%B", "[January-December]"},
	{"%d", "DD"}, {"%H", "hh"}, {"%I", "hh"}, {"%M", "mm"}, {"%S", "ss"}, {"%f", "uuuuuu"}, {"%a", "[Mon-Sun]"},
	{"%A", "[Monday-Sunday]"}, {"%p", "[AM|PM]"}, {"%z", "[+HHMM|-HHMM]"}}

// parsePattern splits a strftime pattern into directives, refusing those
// the framework does not read and write.
func parsePattern(p string) ([]directive, error) {
	var out []directive
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			j := strings.IndexByte(p[i:], '%')
			if j < 0 {
				j = len(p) - i
			}
			out = append(out, directive{text: p[i : i+j]})
			i += j - 1
			continue
		}
		if i+1 == len(p) {
			return nil, fmt.Errorf("format %q ends with %%", p)
		}
		if _, ok := strptimeRE[p[i+1]]; !ok {
			return nil, fmt.Errorf("format %q: %%%c is not one of %%Y %%y %%m %%d %%H %%I %%M %%S %%f %%p %%z %%b %%B %%%%", p, p[i+1])
		}
		out = append(out, directive{verb: p[i+1]})
		i++
	}
	return out, nil
}

var spaces = regexp.MustCompile(`\s+`)

// strptime compiles a pattern as Python's _strptime does: a run of
// white space matches any, other text itself, case-insensitively, and
// the whole input must match.
func strptime(ds []directive) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?i)^`)
	for _, d := range ds {
		if d.verb != 0 {
			b.WriteString(strptimeRE[d.verb])
			continue
		}
		for i, part := range spaces.Split(d.text, -1) {
			if i > 0 {
				b.WriteString(`\s+`)
			}
			b.WriteString(regexp.QuoteMeta(part))
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// strptimeRead reads s by a compiled pattern, as datetime.strptime.
func strptimeRead(re *regexp.Regexp, s string) (wall time.Time, offset int, aware, ok bool) {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, 0, false, false
	}
	year, month, day, hour, minute, sec, us := 1900, 1, 1, 0, 0, 0, 0
	pm, twelve := -1, false
	for i, name := range re.SubexpNames() {
		v := strings.ToLower(m[i])
		if name == "" || v == "" {
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		switch name {
		case "Y":
			year = n
		case "y":
			if year = n + 1900; n < 69 {
				year = n + 2000
			}
		case "m":
			month = n
		case "b", "B":
			month = monthOf(v)
		case "d":
			day = n
		case "H":
			hour = n
		case "I":
			hour, twelve = n, true
		case "M":
			minute = n
		case "S":
			sec = n
		case "f":
			us, _ = strconv.Atoi(v + strings.Repeat("0", 6-len(v)))
		case "p":
			pm = map[bool]int{true: 1, false: 0}[v == "pm"]
		case "z":
			aware = true
			if v != "z" {
				offset = zOffset(v)
			}
		}
	}
	if twelve {
		hour %= 12
		if pm == 1 {
			hour += 12
		}
	}
	// datetime() refuses what does not exist, timezone() an offset of a
	// day or more.
	if year < 1 || sec > 59 || month < 1 || day > daysIn(year, month) || offset >= 86400 || offset <= -86400 {
		return time.Time{}, 0, false, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, us*1000, time.UTC), offset, aware, true
}

func monthOf(name string) int {
	for m := time.January; m <= time.December; m++ {
		if strings.HasPrefix(strings.ToLower(m.String()), name[:3]) {
			return int(m)
		}
	}
	return 0
}

// zOffset is the seconds of a %z offset: +HH[:]MM[[:]SS[.ffffff]].
func zOffset(v string) int {
	sign := 1
	if v[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(v[1:], ":", "")
	h, _ := strconv.Atoi(digits[0:2])
	m, _ := strconv.Atoi(digits[2:4])
	s := 0
	if len(digits) >= 6 {
		s, _ = strconv.Atoi(digits[4:6])
	}
	return sign * (h*3600 + m*60 + s)
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// strftime writes t as Python's strftime of the directives.
func strftime(t time.Time, ds []directive, naive bool) string {
	var b []byte
	two := func(n int) { b = append(b, byte('0'+n/10%10), byte('0'+n%10)) }
	for _, d := range ds {
		switch d.verb {
		case 0:
			b = append(b, d.text...)
		case 'Y':
			b = strconv.AppendInt(b, int64(t.Year()), 10)
		case 'y':
			two(t.Year() % 100)
		case 'm':
			two(int(t.Month()))
		case 'd':
			two(t.Day())
		case 'H':
			two(t.Hour())
		case 'I':
			two((t.Hour()+11)%12 + 1)
		case 'M':
			two(t.Minute())
		case 'S':
			two(t.Second())
		case 'f':
			b = fmt.Appendf(b, "%06d", t.Nanosecond()/1000)
		case 'p':
			b = append(b, map[bool]string{true: "PM", false: "AM"}[t.Hour() >= 12]...)
		case 'z':
			if !naive {
				b = t.AppendFormat(b, "-0700")
			}
		case 'b':
			b = append(b, t.Month().String()[:3]...)
		case 'B':
			b = append(b, t.Month().String()...)
		case '%':
			b = append(b, '%')
		}
	}
	return string(b)
}
