package pycompat

import "testing"

// TestDecimal pins what Python 3.11's Decimal() reads (Debian's python3).
func TestDecimal(t *testing.T) {
	for in, want := range map[string]string{
		"1_0": "10e0", "1__0": "10e0", "_1": "1e0", "1_": "1e0", "1._5": "15e-1", ".5": "5e-1", "5.": "5e0",
		"+.5e1": "5e0", "1e1_0": "1e10", "٣": "3e0", " 3 ": "3e0", "\x1c3\x1f": "3e0", "1E+5": "1e5", "１２": "12e0",
		"-2.50": "-250e-2",
	} {
		if got, ok := Decimal(in); !ok || got != want {
			t.Errorf("Decimal(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"1e", "e1", ".", "+", "1 0", "0x10", "inf", "-Infinity", "nan", "sNaN12", "", "_", "1..2", "1e+", "--1"} {
		if got, ok := Decimal(in); ok {
			t.Errorf("Decimal(%q) = %q, want invalid", in, got)
		}
	}
}

// TestDjangoDate pins what Django 3.2's DateField reads.
func TestDjangoDate(t *testing.T) {
	for in, want := range map[string]string{
		"2024-01-04": "2024-01-04", "2024-1-4": "2024-01-04", " 2024-01-04 ": "2024-01-04", "01/04/2024": "2024-01-04",
		"1/4/24": "2024-01-04", "1/4/70": "1970-01-04", "Jan 4 2024": "2024-01-04", "jan  4, 2024": "2024-01-04",
		"4 January, 2024": "2024-01-04", "December 31 1999": "1999-12-31", "٢٠٢٤-01-04": "2024-01-04",
	} {
		if got, ok := DjangoDate(in); !ok || got.Format("2006-01-02") != want {
			t.Errorf("DjangoDate(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "2024-13-04", "2024-02-30", "x", "2024-01-04T00:00", "Janu 4 2024", "04-01-2024", "2024/01/04"} {
		if got, ok := DjangoDate(in); ok {
			t.Errorf("DjangoDate(%q) = %v, want invalid", in, got)
		}
	}
}
