package pycompat

import (
	"strings"
	"testing"
)

// TestIntDigits checks the reading of numbers against Python's int(), which
// DRF and Django use on page, page size, limit, offset and cursor values
// and DRF's IntegerField.
func TestIntDigits(t *testing.T) {
	cases := []struct {
		in      string
		digits  string
		neg, ok bool
	}{
		{"12", "12", false, true},
		{" +5 ", "5", false, true},
		{"-5", "5", true, true},
		{"-0", "0", false, true},
		{"007", "7", false, true},
		{"0_0", "0", false, true},
		{"1_000", "1000", false, true},
		{"\u0663", "3", false, true},        // Arabic-Indic three
		{"\uff15", "5", false, true},        // fullwidth five
		{"\U0001d7d3", "5", false, true},    // mathematical bold five
		{"\u30005\u2028", "5", false, true}, // ideographic space, line separator
		{"\u00855\u00a0", "5", false, true},
		{"99999999999999999999999", "99999999999999999999999", false, true},
		{"", "", false, false},
		{"+", "", false, false},
		{"- 5", "", false, false},
		{"1 2", "", false, false},
		{"1__0", "", false, false},
		{"_1", "", false, false},
		{"1_", "", false, false},
		{"2.0", "", false, false},
		{"0x10", "", false, false},
		{"\x1c5", "", false, false},
		{"\u200b5", "", false, false},
		{"\u180e5", "", false, false},
		{strings.Repeat("9", 4300), strings.Repeat("9", 4300), false, true},
		{strings.Repeat("9", 4301), "", false, false},
		{strings.Repeat("0", 4301), "", false, false},
		{"1" + strings.Repeat("_1", 4299), strings.Repeat("1", 4300), false, true},
	}
	for _, c := range cases {
		digits, neg, ok := intDigits(c.in)
		if digits != c.digits || neg != c.neg || ok != c.ok {
			t.Errorf("intDigits(%.20q) = %.20q, %v, %v; want %.20q, %v, %v", c.in, digits, neg, ok, c.digits, c.neg, c.ok)
		}
	}
}

// TestB64DecodeString checks decoding against Python's b64decode.
func TestB64DecodeString(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"cD0z", "p=3", true},
		{"", "", true},
		{" ", "", true},
		{"====", "", true},
		{"!!!!", "", true},
		{"cD0=", "p=", true},
		{"cD0=x", "p=", true},
		{"cD0==", "p=", true},
		{"cD0=cD0=", "p=", true},
		{"c D\n0z", "p=3", true},
		{"cD0", "", false},
		{"a", "", false},
		{"ab", "", false},
		{"abc", "", false},
		{"cD0z\u00e9", "", false},
		{"YQ", "", false},
		{"YQ=", "", false},
		{"YQ==", "a", true},
		{"YQ=!=", "a", true},
		{"YQ=Y=", "a\x06", true},
	}
	for _, c := range cases {
		got, ok := B64DecodeString(c.in)
		if ok != c.ok || string(got) != c.want {
			t.Errorf("B64DecodeString(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestB64Decode checks the decoding of bytes, which skips those outside
// the alphabet, ASCII or not, as Python's b64decode(bytes) does.
func TestB64Decode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"YWxp\xe9Y2U6eA==", "alice:x"},
		{"YWxpY2U6eA==trailing", "alice:x"},
		{"YQ=YQ==", "a\x06\x10"},
	} {
		if got, ok := B64Decode(c.in); !ok || string(got) != c.want {
			t.Errorf("B64Decode(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	if _, ok := B64Decode("YWxpY2U"); ok {
		t.Error("an incomplete quantum decoded")
	}
}

// TestInt checks the values, against Python's int(), and the saturation
// of Atoi.
func TestInt(t *testing.T) {
	if n, ok := Int(" -1_000\u0663 "); !ok || n.String() != "-10003" {
		t.Errorf("Int = %v, %v", n, ok)
	}
	if n, ok := Atoi("99999999999999999999999"); !ok || n != int(^uint(0)>>1) {
		t.Errorf("Atoi saturates: %d, %v", n, ok)
	}
	if n, ok := Atoi("-12"); !ok || n != -12 {
		t.Errorf("Atoi(-12) = %d, %v", n, ok)
	}
	if _, ok := Int("1e3"); ok {
		t.Error("Int accepted 1e3")
	}
	// Atoi reads plain ASCII digits on a short path: it agrees with Int.
	for _, s := range []string{"0", "007", "3", "123456789012345678", "1234567890123456789", "999999999999999999",
		"", " 3", "3 ", "+3", "1_0", "\u0663", "3a", "-0", "00000000000000000000000001"} {
		n, ok := Atoi(s)
		want, wantOK := Int(s)
		if ok != wantOK || ok && int64(n) != want.Int64() {
			t.Errorf("Atoi(%q) = %d, %v; Int gives %v, %v", s, n, ok, want, wantOK)
		}
	}
}

// TestSafeMethods checks DRF's SAFE_METHODS and Django's CSRF exemption.
func TestSafeMethods(t *testing.T) {
	for m, want := range map[string][2]bool{
		"GET": {true, true}, "HEAD": {true, true}, "OPTIONS": {true, true}, "TRACE": {false, true},
		"POST": {false, false}, "PUT": {false, false}, "PATCH": {false, false}, "DELETE": {false, false}, "get": {false, false},
	} {
		if got := [2]bool{IsSafeMethod(m), IsCSRFSafeMethod(m)}; got != want {
			t.Errorf("%s: safe, CSRF-safe = %v, want %v", m, got, want)
		}
	}
}

// TestRepr pins Python 3's repr() of str values.
func TestRepr(t *testing.T) {
	for in, want := range map[string]string{
		"evil.example":      `'evil.example'`,
		"Evil.Example:8000": `'Evil.Example:8000'`,
		"ev'il":             `"ev'il"`,
		`ev'i"l`:            `'ev\'i"l'`,
		`a\b`:               `'a\\b'`,
		"a\nb\tc\rd":        `'a\nb\tc\rd'`,
		"\x00\x7f\u00a0":    `'\x00\x7f\xa0'`,
		"\u2028é":           `'\u2028é'`,
		"":                  `''`,
	} {
		if got := Repr(in); got != want {
			t.Errorf("Repr(%q) = %s, want %s", in, got, want)
		}
	}
}
