package pycompat

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// JSONDecodeError is Python's json.JSONDecodeError: Msg is the scanner's
// words, Pos the index in code points of the character it stopped at,
// Lineno and Colno where that is, counted as Python counts them.
type JSONDecodeError struct {
	Msg                string
	Pos, Lineno, Colno int
}

// Error words the error as Python's str() does.
func (e *JSONDecodeError) Error() string {
	return fmt.Sprintf("%s: line %d column %d (char %d)", e.Msg, e.Lineno, e.Colno, e.Pos)
}

// jsonValueError is a ValueError json.loads raises without a position.
type jsonValueError string

func (e jsonValueError) Error() string { return string(e) }

// maxJSONDepth bounds the nesting JSONLoadsError follows. Python's own
// limit (its recursion limit, about a thousand) is lower and raises
// RecursionError, which is not a parse error; past this depth
// JSONLoadsError gives up and answers nil.
const maxJSONDepth = 10000

// JSONLoadsError is the ValueError Python 3.11's json.loads(text,
// parse_constant=strict_constant) raises, as DRF's JSONParser calls it
// (text is the body already decoded, in UTF-8), or nil when it parses
// the text. It is a *JSONDecodeError for a syntax error, found where and
// as Python's C scanner finds it: "Expecting value", "Expecting property
// name enclosed in double quotes", "Expecting ',' delimiter", "Expecting
// ':' delimiter", "Unterminated string starting at", "Invalid control
// character at", "Invalid \\escape", "Invalid \\uXXXX escape", "Extra
// data" and "Unexpected UTF-8 BOM (decode using utf-8-sig)". NaN,
// Infinity and -Infinity are DRF's strict_constant error ("Out of range
// float values are not JSON compliant: 'NaN'") and an integer of more
// than MaxIntDigits digits is Python's int conversion limit, both
// without a position, raised when the scanner reaches them. Nesting
// deeper than Python follows is not judged (see maxJSONDepth).
func JSONLoadsError(text []byte) error {
	if bytes.HasPrefix(text, []byte("\uFEFF")) {
		return jsonErrorAt(text, "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
	}
	s := jsonScanner{s: text}
	end, err := s.value(s.skip(0), 0)
	if err == nil {
		if end = s.skip(end); end != len(text) {
			err = s.fail("Extra data", end)
		}
	}
	if err == errJSONTooDeep {
		return nil
	}
	return err
}

// HasLongDigitRun reports whether text has more than MaxIntDigits ASCII
// digits in a row: only then can JSONLoadsError refuse a text for an
// integer that Go's decoder takes.
func HasLongDigitRun(text []byte) bool {
	run := 0
	for _, c := range text {
		if '0' <= c && c <= '9' {
			if run++; run > MaxIntDigits {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

var errJSONTooDeep = jsonValueError("nesting too deep")

// jsonErrorAt is the JSONDecodeError of msg at byte offset off of text.
func jsonErrorAt(text []byte, msg string, off int) *JSONDecodeError {
	before := text[:off]
	pos := utf8.RuneCount(before)
	colno := pos + 1
	if nl := bytes.LastIndexByte(before, '\n'); nl >= 0 {
		colno = utf8.RuneCount(before[nl+1:]) + 1
	}
	return &JSONDecodeError{Msg: msg, Pos: pos, Lineno: bytes.Count(before, []byte("\n")) + 1, Colno: colno}
}

// jsonScanner follows CPython 3.11's Modules/_json.c (scan_once_unicode
// and its helpers) over UTF-8: every character it compares is ASCII, so
// byte offsets stand for code points until an error is worded.
type jsonScanner struct {
	s []byte
}

func (j *jsonScanner) fail(msg string, off int) error { return jsonErrorAt(j.s, msg, off) }

// stop is the StopIteration the scanner raises, which json.decoder words
// "Expecting value".
func (j *jsonScanner) stop(off int) error { return j.fail("Expecting value", off) }

func (j *jsonScanner) skip(i int) int {
	for i < len(j.s) {
		switch j.s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (j *jsonScanner) has(i int, lit string) bool {
	return len(j.s)-i >= len(lit) && string(j.s[i:i+len(lit)]) == lit
}

// value is scan_once_unicode: the end of the value at i.
func (j *jsonScanner) value(i, depth int) (int, error) {
	if i >= len(j.s) {
		return 0, j.stop(i)
	}
	switch j.s[i] {
	case '"':
		return j.str(i + 1)
	case '{':
		if depth >= maxJSONDepth {
			return 0, errJSONTooDeep
		}
		return j.object(i+1, depth+1)
	case '[':
		if depth >= maxJSONDepth {
			return 0, errJSONTooDeep
		}
		return j.array(i+1, depth+1)
	case 'n':
		if j.has(i, "null") {
			return i + 4, nil
		}
	case 't':
		if j.has(i, "true") {
			return i + 4, nil
		}
	case 'f':
		if j.has(i, "false") {
			return i + 5, nil
		}
	case 'N':
		if j.has(i, "NaN") {
			return 0, jsonValueError("Out of range float values are not JSON compliant: 'NaN'")
		}
	case 'I':
		if j.has(i, "Infinity") {
			return 0, jsonValueError("Out of range float values are not JSON compliant: 'Infinity'")
		}
	case '-':
		if j.has(i, "-Infinity") {
			return 0, jsonValueError("Out of range float values are not JSON compliant: '-Infinity'")
		}
	}
	return j.number(i)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number is _match_number_unicode.
func (j *jsonScanner) number(start int) (int, error) {
	s, i := j.s, start
	if s[i] == '-' {
		if i++; i >= len(s) {
			return 0, j.stop(start)
		}
	}
	intStart := i
	switch {
	case '1' <= s[i] && s[i] <= '9':
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	case s[i] == '0':
		i++
	default:
		return 0, j.stop(start)
	}
	digits := i - intStart
	isFloat := false
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		isFloat = true
		for i += 2; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	if i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') {
		e := i
		i++
		if i+1 < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
		if isDigit(s[i-1]) {
			isFloat = true
		} else {
			i = e
		}
	}
	if !isFloat && digits > MaxIntDigits {
		return 0, jsonValueError("Exceeds the limit (" + strconv.Itoa(MaxIntDigits) +
			" digits) for integer string conversion: value has " + strconv.Itoa(digits) +
			" digits; use sys.set_int_max_str_digits() to increase the limit")
	}
	return i, nil
}

// hexValue is the value of four hex digits.
func hexValue(b []byte) rune {
	var r rune
	for _, c := range b {
		r = r<<4 | rune(unhex(c))
	}
	return r
}

// str is scanstring_unicode (strict): the end of the string whose
// opening quote is at begin-1.
func (j *jsonScanner) str(end int) (int, error) {
	s, begin := j.s, end-1
	for {
		next := end
		for ; next < len(s); next++ {
			c := s[next]
			if c == '"' || c == '\\' {
				break
			}
			if c <= 0x1f {
				return 0, j.fail("Invalid control character at", next)
			}
		}
		if next == len(s) {
			return 0, j.fail("Unterminated string starting at", begin)
		}
		if s[next] == '"' {
			return next + 1, nil
		}
		next++ // past the backslash
		if next == len(s) {
			return 0, j.fail("Unterminated string starting at", begin)
		}
		if c := s[next]; c != 'u' {
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			default:
				return 0, j.fail("Invalid \\escape", next-1)
			}
			end = next + 1
			continue
		}
		u := next
		next++
		end = next + 4
		// Python wants a character after the four digits (end >= len).
		if end >= len(s) || !isHex(s[next]) || !isHex(s[next+1]) || !isHex(s[next+2]) || !isHex(s[next+3]) {
			return 0, j.fail("Invalid \\uXXXX escape", u)
		}
		c := hexValue(s[next:end])
		if 0xd800 <= c && c <= 0xdbff && end+6 < len(s) && s[end] == '\\' && s[end+1] == 'u' {
			lo := end + 2
			for k := lo; k < lo+4; k++ {
				if !isHex(s[k]) {
					return 0, j.fail("Invalid \\uXXXX escape", end+1)
				}
			}
			if c2 := hexValue(s[lo : lo+4]); 0xdc00 <= c2 && c2 <= 0xdfff {
				end += 6
			}
		}
	}
}

// object is _parse_object_unicode from just after the "{".
func (j *jsonScanner) object(i, depth int) (int, error) {
	s := j.s
	i = j.skip(i)
	if i < len(s) && s[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return 0, j.fail("Expecting property name enclosed in double quotes", i)
		}
		var err error
		if i, err = j.str(i + 1); err != nil {
			return 0, err
		}
		i = j.skip(i)
		if i >= len(s) || s[i] != ':' {
			return 0, j.fail("Expecting ':' delimiter", i)
		}
		if i, err = j.value(j.skip(i+1), depth); err != nil {
			return 0, err
		}
		i = j.skip(i)
		if i < len(s) && s[i] == '}' {
			return i + 1, nil
		}
		if i >= len(s) || s[i] != ',' {
			return 0, j.fail("Expecting ',' delimiter", i)
		}
		i = j.skip(i + 1)
	}
}

// array is _parse_array_unicode from just after the "[".
func (j *jsonScanner) array(i, depth int) (int, error) {
	s := j.s
	i = j.skip(i)
	if i < len(s) && s[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = j.value(i, depth); err != nil {
			return 0, err
		}
		i = j.skip(i)
		if i < len(s) && s[i] == ']' {
			return i + 1, nil
		}
		if i >= len(s) || s[i] != ',' {
			return 0, j.fail("Expecting ',' delimiter", i)
		}
		i = j.skip(i + 1)
	}
}
