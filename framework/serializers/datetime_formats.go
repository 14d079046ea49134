package serializers

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/structs"
)

// DRF's DateTimeField messages of its format options.
const (
	msgDatetimeFormats = "Datetime has wrong format. Use one of these formats instead: %s."
	msgMakeAware       = "Invalid datetime for the timezone \"%s\"."
	// iso8601 is DRF's ISO_8601, the format of Django's parse_datetime
	// and of isoformat().
	iso8601 = "iso-8601"
)

// dateTime is a DateTimeField's options (the drf tag's format,
// input_formats and default_timezone).
type dateTime struct {
	// output is the strftime pattern of format=, nil for iso-8601.
	output []directive
	// inputs are the patterns of input_formats=, nil for iso-8601;
	// humanized is DRF's wording of them in the message.
	inputs    []*regexp.Regexp
	humanized string
	// tz is default_timezone; nil is UTC (Django's TIME_ZONE).
	tz *time.Location
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
		for i, part := range regexp.MustCompile(`\s+`).Split(d.text, -1) {
			if i > 0 {
				b.WriteString(`\s+`)
			}
			b.WriteString(regexp.QuoteMeta(part))
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// bindDateTime sets a time.Time field's format, input_formats (split on
// "|") or default_timezone option.
func (f *field) bindDateTime(key, val string) error {
	if f.sf.Kind != structs.Time {
		return fmt.Errorf("%s needs a time.Time field", key)
	}
	if f.dt == nil {
		f.dt = &dateTime{}
	}
	switch key {
	case "format":
		if strings.EqualFold(val, iso8601) {
			f.dt.output = nil
			return nil
		}
		ds, err := parsePattern(val)
		f.dt.output = ds
		return err
	case "input_formats":
		formats := strings.Split(val, "|")
		f.dt.inputs = f.dt.inputs[:0]
		for _, p := range formats {
			if strings.EqualFold(p, iso8601) {
				f.dt.inputs = append(f.dt.inputs, nil)
				continue
			}
			ds, err := parsePattern(p)
			if err != nil {
				return err
			}
			f.dt.inputs = append(f.dt.inputs, strptime(ds))
		}
		h := strings.ReplaceAll(strings.Join(formats, ", "), iso8601, "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]")
		for _, m := range humanized {
			h = strings.ReplaceAll(h, m[0], m[1])
		}
		f.dt.humanized = h
		return nil
	}
	tz, err := time.LoadLocation(val)
	if err != nil {
		return fmt.Errorf("default_timezone %q: %w", val, err)
	}
	f.dt.tz = tz
	return nil
}

// toDateTime is DRF's DateTimeField.to_internal_value with the field's
// options: the first of its input formats that reads s, the time made
// aware in, or moved to, its time zone.
func (f *field) toDateTime(raw any, level compat.Level) (time.Time, string) {
	dt := f.dt
	invalid := msgDatetime
	if dt != nil && dt.inputs != nil {
		invalid = fmt.Sprintf(msgDatetimeFormats, dt.humanized)
	}
	s, ok := raw.(string)
	if !ok {
		return time.Time{}, invalid
	}
	var inputs []*regexp.Regexp
	if dt != nil && dt.inputs != nil {
		inputs = dt.inputs
	} else {
		inputs = []*regexp.Regexp{nil}
	}
	for _, re := range inputs {
		var t time.Time
		var naive bool
		if re == nil {
			var err error
			if t, err = structs.ParseDateTime(s); err != nil {
				continue
			}
			if msg := checkDateTime(s, t); msg != "" {
				if msg == msgDatetime {
					continue
				}
				return time.Time{}, msg
			}
			naive = isNaive(s)
		} else if t, naive, ok = strptimeRead(re, s); !ok {
			continue
		}
		if dt == nil || dt.tz == nil {
			return t, ""
		}
		if !naive {
			return t.In(dt.tz), ""
		}
		if t, ok = makeAware(t, dt.tz, level); !ok {
			return time.Time{}, fmt.Sprintf(msgMakeAware, dt.tz)
		}
		return t, ""
	}
	return time.Time{}, invalid
}

// isNaive reports an ISO 8601 datetime without an offset or Z.
func isNaive(s string) bool {
	i := strings.IndexAny(s, "Tt ")
	return i >= 0 && !strings.ContainsAny(s[i:], "+-Zz")
}

// strptimeRead reads s by a compiled pattern, as datetime.strptime: the
// fields it does not hold are 1900-01-01 00:00:00; a date that does not
// exist is no match. The time is UTC, naive unless the pattern has %z.
func strptimeRead(re *regexp.Regexp, s string) (t time.Time, naive, ok bool) {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false, false
	}
	year, month, day, hour, minute, sec, us := 1900, 1, 1, 0, 0, 0, 0
	pm, twelve := -1, false
	offset, naive := 0, true
	for i, name := range re.SubexpNames() {
		v := strings.ToLower(m[i])
		if name == "" || v == "" && name != "z" {
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
			if v == "" {
				continue
			}
			naive = false
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
		return time.Time{}, false, false
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, us*1000, time.UTC).Add(-time.Duration(offset) * time.Second)
	return t, naive, true
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

// makeAware is Django's make_aware of a naive time (its wall clock held
// as UTC) in tz: DRF 3.14's pytz refuses a wall time that does not exist
// (a DST gap) and one that exists twice (a DST overlap); DRF 3.18's
// zoneinfo takes both at the offset before the change (fold=0): the
// first of the two, and the gap's as its offset before it.
func makeAware(wall time.Time, tz *time.Location, level compat.Level) (time.Time, bool) {
	var found []time.Time
	_, before := wall.Add(-24 * time.Hour).In(tz).Zone()
	_, after := wall.Add(24 * time.Hour).In(tz).Zone()
	for _, off := range []int{before, after} {
		t := wall.Add(-time.Duration(off) * time.Second).In(tz)
		if _, o := t.Zone(); o == off && (len(found) == 0 || !found[0].Equal(t)) {
			found = append(found, t)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], true
	case level == compat.DRF314:
		return time.Time{}, false
	}
	return wall.Add(-time.Duration(before) * time.Second).In(tz), true
}

// appendDateTime writes t as the field's format, in its time zone.
func (f *field) appendDateTime(b []byte, t time.Time) []byte {
	if f.dt.tz == nil {
		t = t.UTC()
	} else {
		t = t.In(f.dt.tz)
	}
	if f.dt.output == nil {
		if _, off := t.Zone(); off == 0 {
			return appendTime(b, t)
		}
		layout := "2006-01-02T15:04:05Z07:00"
		if t.Nanosecond()/1000 != 0 {
			layout = "2006-01-02T15:04:05.000000Z07:00"
		}
		return appendString(b, t.Format(layout))
	}
	return appendString(b, strftime(t, f.dt.output))
}

// strftime writes t as Python's datetime.strftime of the directives.
func strftime(t time.Time, ds []directive) string {
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
			b = t.AppendFormat(b, "-0700")
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
