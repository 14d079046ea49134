package structs

import (
	"errors"
	"testing"
	"time"
)

// The answers below are Django 3.2's parse_date, parse_time and
// parse_duration and its duration_string, as DRF 3.14's fields give them
// (/usr/bin/python3 with python3-django and python3-djangorestframework).

func TestParseDateLikeDjango(t *testing.T) {
	for in, want := range map[string][3]int{
		"2024-01-31":   {2024, 1, 31},
		"2024-1-3":     {2024, 1, 3},
		"2024-02-29":   {2024, 2, 29},
		"0001-01-01\n": {1, 1, 1},
	} {
		y, m, d, err := ParseDate(in)
		if err != nil || y != want[0] || int(m) != want[1] || d != want[2] {
			t.Errorf("ParseDate(%q) = %d-%d-%d, %v; want %v", in, y, m, d, err, want)
		}
	}
	for _, in := range []string{"", "2024-01-31T10:00:00", " 2024-01-31", "2024-02-30", "20240131", "0000-01-01", "2023-02-29", "2024-01-31 "} {
		if _, _, _, err := ParseDate(in); !errors.Is(err, ErrInvalidValue) {
			t.Errorf("ParseDate(%q) error = %v", in, err)
		}
	}
}

func TestParseTimeLikeDjango(t *testing.T) {
	for in, want := range map[string][4]int{
		"13:45":            {13, 45, 0, 0},
		"13:45:00.123":     {13, 45, 0, 123000},
		"13:45:00.1234567": {13, 45, 0, 123456},
		"13:45:00,5":       {13, 45, 0, 500000},
		"1:2:3":            {1, 2, 3, 0},
		"13:45:00Z":        {13, 45, 0, 0},
		"13:45:00+01:00":   {13, 45, 0, 0},
		"13:45:":           {13, 45, 0, 0},
		"13:45:00.":        {13, 45, 0, 0},
		"23:59:59.999999":  {23, 59, 59, 999999},
	} {
		h, m, s, us, err := ParseTime(in)
		if got := [4]int{h, m, s, us}; err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "25:00", "13:45:60", "24:00", "13", "x13:45", "123:45"} {
		if _, _, _, _, err := ParseTime(in); !errors.Is(err, ErrInvalidValue) {
			t.Errorf("ParseTime(%q) error = %v", in, err)
		}
	}
	if got := FormatTimeOfDay(13, 45, 0, 0); got != "13:45:00" {
		t.Errorf("FormatTimeOfDay = %q", got)
	}
	if got := FormatTimeOfDay(13, 45, 0, 120000); got != "13:45:00.120000" {
		t.Errorf("FormatTimeOfDay = %q", got)
	}
}

func TestParseDurationLikeDjango(t *testing.T) {
	const day = 24 * time.Hour
	for in, want := range map[string]time.Duration{
		"3 02:00:00":        3*day + 2*time.Hour,
		"P3DT2H":            3*day + 2*time.Hour,
		"3 days 02:00:00":   3*day + 2*time.Hour,
		"-1 23:59:59":       -time.Second,
		"1.5":               1500 * time.Millisecond,
		"01:30":             90 * time.Second,
		"-P1D":              -day,
		"3 days, 2:00:00":   3*day + 2*time.Hour,
		"5":                 5 * time.Second,
		"":                  0,
		"-00:00:01":         -time.Second,
		"1 day 00:00:01.5":  day + 1500*time.Millisecond,
		"PT0.5S":            500 * time.Millisecond,
		"-1 day, 23:59:59":  -time.Second,
		"-1 days +23:59:59": -time.Second,
		"P1,5D":             36 * time.Hour,
		"1:02:03.0000015":   time.Hour + 2*time.Minute + 3*time.Second + time.Microsecond,
		"PT0.0000005S":      0, // half a microsecond rounds to even
		"PT0.0000015S":      2 * time.Microsecond,
		"0:00:00.000001":    time.Microsecond,
		"P":                 0,
		"3 days":            3 * day,
		"3 days ":           3 * day,
		"+P1D":              day,
		"1 day -23:58:30":   90 * time.Second,
	} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// 106752 days is a timedelta, but beyond time.Duration.
	for _, in := range []string{"x", "1:2:3:4", "True", "1e+20", "106752 00:00:00", "P1 mon", "P1x5D"} {
		if _, err := ParseDuration(in); !errors.Is(err, ErrInvalidValue) {
			t.Errorf("ParseDuration(%q) error = %v", in, err)
		}
	}
}

func TestDurationTexts(t *testing.T) {
	for _, c := range []struct {
		d                  time.Duration
		django, str, inter string
	}{
		{74 * time.Hour, "3 02:00:00", "3 days, 2:00:00", "3 days 7200.000000 seconds"},
		{1500 * time.Millisecond, "00:00:01.500000", "0:00:01.500000", "0 days 1.500000 seconds"},
		{-time.Second, "-1 23:59:59", "-1 day, 23:59:59", "-1 days 86399.000000 seconds"},
		{0, "00:00:00", "0:00:00", "0 days 0.000000 seconds"},
		{-time.Microsecond, "-1 23:59:59.999999", "-1 day, 23:59:59.999999", "-1 days 86399.999999 seconds"},
		{24 * time.Hour, "1 00:00:00", "1 day, 0:00:00", "1 days 0.000000 seconds"},
	} {
		if got := FormatDuration(c.d); got != c.django {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, got, c.django)
		}
		v := Value{Kind: Duration, I: int64(c.d)}
		if got := v.Text(); got != c.str {
			t.Errorf("Text(%v) = %q, want %q", c.d, got, c.str)
		}
		if got := PostgresInterval(v.Bind().(int64)); got != c.inter {
			t.Errorf("PostgresInterval(%v) = %q, want %q", c.d, got, c.inter)
		}
		for _, text := range []string{c.django, c.str} {
			if back, err := ParseDuration(text); err != nil || back != c.d {
				t.Errorf("ParseDuration(%q) = %v, %v; want %v", text, back, err, c.d)
			}
		}
	}
}

type temporalRow struct {
	D  time.Duration  `db:"d"`
	DP *time.Duration `db:"dp"`
	B  []byte         `db:"b"`
	BP *[]byte        `db:"bp"`
}

func TestDurationAndBytesFields(t *testing.T) {
	s, err := Of[temporalRow]()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		kind   Kind
		format string
		null   bool
	}{{Duration, "duration", false}, {Duration, "duration", true}, {Bytes, "binary", false}, {Bytes, "binary", true}} {
		f := s.Fields[i]
		if f.Kind != want.kind || f.Format != want.format || f.Nullable != want.null {
			t.Errorf("field %s: kind %v, format %q, nullable %v; want %+v", f.Name, f.Kind, f.Format, f.Nullable, want)
		}
	}
	var r temporalRow
	base := AddrOf(&r)
	d, dp, b, bp := s.Fields[0], s.Fields[1], s.Fields[2], s.Fields[3]
	// SQLite's bigint of microseconds and PostgreSQL's interval text.
	for _, src := range []any{int64(90_000_000), "00:01:30", "1 day -23:58:30"} {
		v, err := d.FromDB(src)
		if err != nil {
			t.Fatalf("FromDB(%v): %v", src, err)
		}
		d.Set(base, v)
		if r.D != 90*time.Second {
			t.Errorf("FromDB(%v) gave %v", src, r.D)
		}
	}
	if got := d.Get(base).Bind(); got != int64(90_000_000) {
		t.Errorf("Bind = %#v, want microseconds", got)
	}
	v, _ := dp.Parse("1 02:00:00")
	dp.Set(base, v)
	if r.DP == nil || *r.DP != 26*time.Hour {
		t.Errorf("DP = %v", r.DP)
	}
	v, err = b.FromDB([]byte{0, 1, 'x'})
	if err != nil {
		t.Fatal(err)
	}
	b.Set(base, v)
	bp.Set(base, v)
	if string(r.B) != "\x00\x01x" || r.BP == nil || string(*r.BP) != "\x00\x01x" || &r.B[0] == &(*r.BP)[0] {
		t.Errorf("B = %q, BP = %v", r.B, r.BP)
	}
	if got := b.Get(base); got.Text() != "AAF4" || string(got.Bind().([]byte)) != "\x00\x01x" {
		t.Errorf("Get = %+v", got)
	}
	if back, err := b.Parse("AAF4"); err != nil || Compare(back, b.Get(base)) != 0 {
		t.Errorf("Parse(Text) = %+v, %v", back, err)
	}
	if _, err := b.Parse("not base64!"); !errors.Is(err, ErrInvalidValue) {
		t.Errorf("Parse(bad) error = %v", err)
	}
	bp.SetNull(base)
	if r.BP != nil || !bp.IsNull(base) {
		t.Errorf("BP = %v after SetNull", r.BP)
	}
}
