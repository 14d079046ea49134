package structs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The dates, times and durations of Django's DateField, TimeField and
// DurationField: read as django.utils.dateparse reads them (Django 3.2's
// regular expressions, which DRF's fields use for ISO 8601 input) and
// written as Django stores and DRF renders them.

// ParseDate reads a date as Django's parse_date does: "YYYY-M[M]-D[D]",
// nothing before or after it (a final newline aside, as Python's "$"
// allows). A well-formed date that does not exist (February 30th) is an
// error too, as DRF answers it.
func ParseDate(s string) (year int, month time.Month, day int, err error) {
	bad := fmt.Errorf("%w: date %q", ErrInvalidValue, s)
	p := parser{s: strings.TrimSuffix(s, "\n"), ok: true}
	y := p.digits(4, 4)
	p.lit('-')
	m := p.digits(1, 2)
	p.lit('-')
	d := p.digits(1, 2)
	if !p.ok || p.i != len(p.s) || !validDate(y, m, d) {
		return 0, 0, 0, bad
	}
	return y, time.Month(m), d, nil
}

// validDate reports a date Python's datetime.date accepts: years 1 to 9999.
func validDate(y, m, d int) bool {
	if y < 1 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Day() == d
}

// ParseTime reads a time of day as Django's parse_time does:
// "H[H]:M[M][:S[S][.ffffff]]", a comma for the point, digits after the
// sixth dropped, and whatever follows the match ignored (so "13:45:00Z"
// and "13:45:00+01:00" are 13:45, as Django 3.2 reads them).
func ParseTime(s string) (hour, minute, second, microsecond int, err error) {
	p := parser{s: s, ok: true}
	hour = p.digits(1, 2)
	p.lit(':')
	minute = p.digits(1, 2)
	if p.ok && p.peek(':') {
		q := p
		q.i++
		if sec := q.digits(1, 2); q.ok {
			p, second = q, sec
			if p.peek('.') || p.peek(',') {
				q := p
				q.i++
				start := q.i
				q.digits(1, 12)
				if q.ok {
					n := min(q.i-start, 6)
					microsecond, _ = strconv.Atoi(s[start : start+n])
					for range 6 - n {
						microsecond *= 10
					}
				}
			}
		}
	}
	if !p.ok || hour > 23 || minute > 59 || second > 59 {
		return 0, 0, 0, 0, fmt.Errorf("%w: time %q", ErrInvalidValue, s)
	}
	return hour, minute, second, microsecond, nil
}

// FormatTimeOfDay writes a time of day as Python's time.isoformat():
// "13:45:00", or "13:45:00.120000" with microseconds. It is how DRF
// renders a TimeField and how Django stores one in SQLite.
func FormatTimeOfDay(hour, minute, second, microsecond int) string {
	if microsecond != 0 {
		return fmt.Sprintf("%02d:%02d:%02d.%06d", hour, minute, second, microsecond)
	}
	return fmt.Sprintf("%02d:%02d:%02d", hour, minute, second)
}

// Django 3.2's duration formats: its own ("3 02:00:00", "3 days, 2:00:00"
// as str(timedelta) writes it), ISO 8601 ("P3DT2H") and PostgreSQL's
// ("3 days 02:00:00"). RE2 has no lookahead: the standard format's hours
// are taken when two more numbers follow, which durationParts checks.
var (
	standardDuration = regexp.MustCompile(`^(?:(-?\d+) (?:days?, )?)?(-?)(?:(\d+):)?(?:(\d+):)?(\d+)(?:[.,](\d{1,6})\d{0,6})?\n?$`)
	isoDuration      = regexp.MustCompile(`^([-+]?)P(?:(\d+(?:.\d+)?)D)?(?:T(?:(\d+(?:.\d+)?)H)?(?:(\d+(?:.\d+)?)M)?(?:(\d+(?:.\d+)?)S)?)?\n?$`)
	postgresDuration = regexp.MustCompile(`^(?:(-?\d+) (?:days? ?))?(?:([-+])?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?)?\n?$`)
)

// ErrDurationOverflow, ErrDurationAboveMax and ErrDurationBelowMin are
// ParseDuration's errors, with ErrInvalidValue, for a duration Django's
// parse_duration raises OverflowError for (beyond Python's timedelta,
// ±999,999,999 days, in its days, its time or their sum), and for one
// Python holds but a time.Duration cannot (beyond MaxDuration or
// MinDuration).
var (
	ErrDurationOverflow = errors.New("beyond Python's timedelta")
	ErrDurationAboveMax = errors.New("above time.Duration's maximum")
	ErrDurationBelowMin = errors.New("below time.Duration's minimum")
)

// MaxDuration and MinDuration are the longest durations ParseDuration
// reads either way: time.Duration's range in whole microseconds.
const (
	MaxDuration = time.Duration(1<<63-1) / time.Microsecond * time.Microsecond
	MinDuration = -MaxDuration
)

// ParseDuration reads a duration as Django's parse_duration does, to the
// microsecond (rounded half to even, as Python's timedelta rounds). A
// duration beyond time.Duration's range (about 292 years) is an error.
func ParseDuration(s string) (time.Duration, error) {
	bad := fmt.Errorf("%w: duration %q", ErrInvalidValue, s)
	var days, sign string
	var parts [4]string // hours, minutes, seconds, microseconds
	isoSigned := false
	if m := standardDuration.FindStringSubmatch(s); m != nil {
		days, sign = m[1], m[2]
		parts = [4]string{m[3], m[4], m[5], m[6]}
		if parts[0] != "" && parts[1] == "" {
			// "1:30" is minutes and seconds: hours need two more numbers.
			parts[0], parts[1] = "", parts[0]
		}
		if parts[3] != "" {
			parts[3] = "0." + parts[3]
		}
	} else if m := isoDuration.FindStringSubmatch(s); m != nil {
		sign, days, isoSigned = m[1], m[2], true
		parts = [4]string{m[3], m[4], m[5], ""}
	} else if m := postgresDuration.FindStringSubmatch(s); m != nil {
		days, sign = m[1], m[2]
		parts = [4]string{m[3], m[4], m[5], m[6]}
		if parts[3] != "" {
			parts[3] = "0." + parts[3]
		}
	} else {
		return 0, bad
	}
	// Seconds per unit of hours, minutes, seconds and the fraction.
	units := [4]int64{3600, 60, 1, 1}
	rest := new(big.Rat)
	for i, text := range parts {
		if text == "" {
			continue
		}
		r, ok := new(big.Rat).SetString(strings.Replace(text, ",", ".", 1))
		if !ok {
			return 0, bad
		}
		rest.Add(rest, r.Mul(r, big.NewRat(units[i], 1)))
	}
	total := new(big.Rat)
	if days != "" {
		d, ok := new(big.Rat).SetString(strings.Replace(days, ",", ".", 1))
		if !ok {
			return 0, bad
		}
		total.Mul(d, big.NewRat(86400, 1))
	}
	if sign == "-" {
		rest.Neg(rest)
		if isoSigned {
			total.Neg(total)
		}
	}
	micros := big.NewRat(1e6, 1)
	dayUs, restUs := roundHalfEven(new(big.Rat).Mul(total, micros)), roundHalfEven(new(big.Rat).Mul(rest, micros))
	if !pythonTimedelta(dayUs) || !pythonTimedelta(restUs) || !pythonTimedelta(new(big.Int).Add(dayUs, restUs)) {
		return 0, fmt.Errorf("%w (%w)", bad, ErrDurationOverflow)
	}
	total.Add(total, rest)
	us := roundHalfEven(total.Mul(total, micros))
	const maxMicros = int64(MaxDuration / time.Microsecond)
	if !us.IsInt64() || us.Int64() > maxMicros || us.Int64() < -maxMicros {
		beyond := ErrDurationAboveMax
		if us.Sign() < 0 {
			beyond = ErrDurationBelowMin
		}
		return 0, fmt.Errorf("%w (%w)", bad, beyond)
	}
	return time.Duration(us.Int64()) * time.Microsecond, nil
}

// The range of Python's timedelta in microseconds: -999999999 days to
// 999999999 days, 23:59:59.999999.
var (
	timedeltaMinUs = new(big.Int).Mul(big.NewInt(-999999999), big.NewInt(86400e6))
	timedeltaMaxUs = new(big.Int).Sub(new(big.Int).Mul(big.NewInt(1e9), big.NewInt(86400e6)), big.NewInt(1))
)

// pythonTimedelta reports whether Python's timedelta holds us microseconds.
func pythonTimedelta(us *big.Int) bool {
	return us.Cmp(timedeltaMinUs) >= 0 && us.Cmp(timedeltaMaxUs) <= 0
}

// roundHalfEven is r rounded to the nearest integer, ties to even.
func roundHalfEven(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	// r = q + m/denom with 0 <= m < denom; compare 2m with denom.
	switch new(big.Int).Lsh(m, 1).Cmp(r.Denom()) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// durationParts splits d, truncated to microseconds, as Python's
// timedelta holds it: days (negative for a negative duration), then
// seconds and microseconds within the day, never negative.
func durationParts(d time.Duration) (days, seconds, micros int64) {
	us := int64(d / time.Microsecond)
	days = us / 86400e6
	rem := us % 86400e6
	if rem < 0 {
		days--
		rem += 86400e6
	}
	return days, rem / 1e6, rem % 1e6
}

// FormatDuration writes d as Django's duration_string, which DRF's
// DurationField renders: "3 02:00:00", "00:00:01.500000", "-1 23:59:59"
// (minus one day plus 23:59:59, one second before zero).
func FormatDuration(d time.Duration) string {
	days, secs, us := durationParts(d)
	s := fmt.Sprintf("%02d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	if days != 0 {
		s = strconv.FormatInt(days, 10) + " " + s
	}
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// durationText writes d as Python's str(timedelta): "3 days, 2:00:00",
// "-1 day, 23:59:59", "0:00:01.500000"; ParseDuration reads it back.
func durationText(d time.Duration) string {
	days, secs, us := durationParts(d)
	s := fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	switch {
	case days == 1 || days == -1:
		s = strconv.FormatInt(days, 10) + " day, " + s
	case days != 0:
		s = strconv.FormatInt(days, 10) + " days, " + s
	}
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// PostgresInterval is a duration of micros microseconds (Bind's value of
// a Duration) as PostgreSQL interval text, as psycopg2 binds a timedelta
// for a DurationField: "3 days 7200.000000 seconds", "-1 days
// 86399.000000 seconds", so that the row holds the days apart from the
// time, as Django's rows do.
func PostgresInterval(micros int64) string {
	days, secs, us := durationParts(time.Duration(micros) * time.Microsecond)
	return fmt.Sprintf("%d days %d.%06d seconds", days, secs, us)
}

// durationFromDB reads a duration column: Django's SQLite bigint of
// microseconds, or PostgreSQL's interval text ("3 days 02:00:00",
// "-1 days +23:59:59"), which parse_duration reads.
func durationFromDB(src any) (time.Duration, error) {
	switch x := src.(type) {
	case int64:
		const limit = int64(1<<63-1) / 1000
		if x > limit || x < -limit {
			return 0, ErrInvalidValue
		}
		return time.Duration(x) * time.Microsecond, nil
	case string:
		return ParseDuration(x)
	}
	return 0, ErrInvalidValue
}

// encodeBinary is the text of a binary value: base64, as Django's
// BinaryField.value_to_string writes it (what DRF renders).
func encodeBinary(b string) string { return base64.StdEncoding.EncodeToString([]byte(b)) }

// DecodeBinary reads base64 text, as BinaryField.to_python reads a string.
func DecodeBinary(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: base64 %q", ErrInvalidValue, s)
	}
	return b, nil
}
