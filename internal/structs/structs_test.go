package structs

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestParseDateTimeLikeDjango(t *testing.T) {
	utc := func(s string) time.Time { t, _ := time.Parse(time.RFC3339Nano, s); return t.UTC() }
	for in, want := range map[string]time.Time{
		"2024-01-05 00:00:00+00:00":        utc("2024-01-05T00:00:00Z"),
		"2024-01-05T00:00:00Z":             utc("2024-01-05T00:00:00Z"),
		"2024-01-05 01:30:00+01:30":        utc("2024-01-05T00:00:00Z"),
		"2024-01-05 00:00:00-0200":         utc("2024-01-05T02:00:00Z"),
		"2024-01-05 00:00:00+02":           utc("2024-01-04T22:00:00Z"),
		"2024-1-5 0:0":                     utc("2024-01-05T00:00:00Z"),
		"2024-01-05 00:00:00.5":            utc("2024-01-05T00:00:00.5Z"),
		"2024-01-05 00:00:00,123456789012": utc("2024-01-05T00:00:00.123456Z"),
		"2024-01-05 00:00:00.000001 Z":     utc("2024-01-05T00:00:00.000001Z"),
	} {
		got, err := ParseDateTime(in)
		if err != nil || !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2024-01-05", "2024-13-01 00:00", "2024-02-30 00:00", "2024-01-05 24:00",
		"2024-01-05 00:00:00+0", "2024-01-05 00:00:00 junk", "x2024-01-05 00:00", "24-01-05 00:00"} {
		if _, err := ParseDateTime(in); !errors.Is(err, ErrInvalidValue) {
			t.Errorf("ParseDateTime(%q) error = %v", in, err)
		}
	}
}

func TestTextIsPythonStr(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want string
	}{
		{Value{Kind: Time, T: time.Date(2024, 1, 5, 1, 0, 0, 0, time.FixedZone("", 3600))}, "2024-01-05 00:00:00+00:00"},
		{Value{Kind: Time, T: time.Date(2024, 1, 5, 0, 0, 0, 120000999, time.UTC)}, "2024-01-05 00:00:00.120000+00:00"},
		{Value{Kind: Bool, B: true}, "True"},
		{Value{Kind: Int, Null: true}, "None"},
		{Value{Kind: Float, F: 1}, "1.0"},
		{Value{Kind: Float, F: -0.5}, "-0.5"},
		{Value{Kind: Float, F: 1e16}, "1e+16"},
		{Value{Kind: Float, F: 123456789012345.6}, "123456789012345.6"},
		{Value{Kind: Float, F: 0.0001}, "0.0001"},
		{Value{Kind: Float, F: 0.00001}, "1e-05"},
		{Value{Kind: Float, F: math.Inf(-1)}, "-inf"},
		{Value{Kind: Uint, U: math.MaxUint64}, "18446744073709551615"},
	} {
		if got := c.v.Text(); got != c.want {
			t.Errorf("Text(%+v) = %q, want %q", c.v, got, c.want)
		}
	}
}

type inner struct {
	Small int8 `db:"small"`
}

type model struct {
	inner
	Name  *string  `db:"name" json:"name"`
	Count uint16   `db:"count"`
	Ratio *float32 `json:"ratio"`
	Skip  string   `json:"-"`
	plain int
}

func TestFieldsReadAndWriteByOffset(t *testing.T) {
	s, err := Of[model]()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	if len(names) != 5 || names[0] != "Small" || s.ByColumn("count") == nil || len(s.Columns()) != 3 {
		t.Fatalf("fields %v", names)
	}
	var m model
	base := AddrOf(&m)
	for _, f := range s.Fields {
		switch f.Name {
		case "Small":
			f.Set(base, Value{I: -5})
		case "Name":
			if !f.IsNull(base) || !f.Get(base).Null {
				t.Error("nil pointer is not NULL")
			}
			f.Set(base, Value{S: "n"})
		case "Count":
			f.Set(base, Value{U: 65535})
		case "Ratio":
			f.Set(base, Value{F: 0.5})
		}
	}
	if m.Small != -5 || m.Name == nil || *m.Name != "n" || m.Count != 65535 || m.Ratio == nil || *m.Ratio != 0.5 {
		t.Errorf("set = %+v", m)
	}
	copied := m
	s.Fields[1].Set(AddrOf(&copied), Value{S: "other"})
	if *m.Name != "n" {
		t.Error("setting a copy's nullable field wrote through the shared pointer")
	}
	s.Fields[1].SetNull(base)
	if m.Name != nil {
		t.Error("SetNull left the pointer")
	}
}
