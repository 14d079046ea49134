package pycompat

//go:generate sh -c "/usr/bin/python3 gencodecs.py && gofmt -w codectables.go"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A Codec is a text encoding of Python's codecs module: it decodes bytes
// as Python's bytes.decode() and codecs.getreader() do, to the character,
// and words their errors as Python does. Django decodes query strings and
// form bodies, and DRF's JSON parser decodes bodies, with the charset of
// the request's Content-Type; CodecOf finds the codec of a charset.
type Codec struct {
	kind codecKind
	// table holds a charmap codec's characters of bytes 0x80 to 0xFF.
	table *[128]rune
}

type codecKind uint8

const (
	kindUTF8 codecKind = iota
	kindUTF8Sig
	kindUTF16 // a byte order mark, else little-endian, the order of the machines DRF runs on
	kindUTF16LE
	kindUTF16BE
	kindUTF32 // as kindUTF16
	kindUTF32LE
	kindUTF32BE
	kindLatin1
	kindASCII
	kindCharmap
)

// UTF8 is Python's "utf-8" codec, Django's DEFAULT_CHARSET.
var UTF8 = &Codec{kind: kindUTF8}

// codecs are the codecs implemented here, by Python's module name, built
// when a charset is first looked up.
var codecs = sync.OnceValue(func() map[string]*Codec {
	m := map[string]*Codec{
		"utf_8": UTF8, "utf_8_sig": {kind: kindUTF8Sig},
		"utf_16": {kind: kindUTF16}, "utf_16_le": {kind: kindUTF16LE}, "utf_16_be": {kind: kindUTF16BE},
		"utf_32": {kind: kindUTF32}, "utf_32_le": {kind: kindUTF32LE}, "utf_32_be": {kind: kindUTF32BE},
		"latin_1": {kind: kindLatin1}, "ascii": {kind: kindASCII},
	}
	for name, chars := range charmapTables {
		c := &Codec{kind: kindCharmap, table: new([128]rune)}
		copy(c.table[:], []rune(chars))
		m[name] = c
	}
	return m
})

// CodecOf returns the codec of a Content-Type's charset as Django keeps
// it (HttpRequest.encoding): the codec Python's codecs.lookup(charset)
// finds, and UTF-8, DEFAULT_CHARSET, for a charset Python does not know.
// Implemented are the UTF-8, UTF-16 and UTF-32 codecs, latin-1, ascii
// and every single-byte code page of Python that leaves ASCII as it is
// (cp1252, iso8859-15, koi8-r, ...); the few codecs Python knows beyond
// these (the multi-byte codecs of Chinese, Japanese and Korean, UTF-7,
// the EBCDIC code pages) are read as UTF-8 too.
func CodecOf(charset string) *Codec {
	if c, ok := lookupCodec(charset); ok {
		return c
	}
	return UTF8
}

// lookupCodec is codecs.lookup(label) among the codecs implemented here:
// the label lowercased, its runs of other characters than letters, digits
// and "." made one "_" (encodings.normalize_encoding), then looked up
// among the aliases of encodings.aliases and the codecs' own names. The
// label's bytes are read as ISO-8859-1, as a WSGI server hands Django a
// header.
func lookupCodec(label string) (*Codec, bool) {
	var buf [32]byte
	norm := buf[:0]
	punct := false
	for i := 0; i < len(label); i++ {
		c := label[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		ascii := c < utf8.RuneSelf
		if ascii && ('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.') ||
			!ascii && (unicode.IsLetter(rune(c)) || unicode.IsNumber(rune(c))) {
			if punct && len(norm) > 0 {
				norm = append(norm, '_')
			}
			if ascii {
				norm = append(norm, c)
			}
			punct = false
		} else {
			punct = true
		}
	}
	name := string(norm)
	module, ok := codecAliases[name]
	if !ok && strings.Contains(name, ".") {
		module, ok = codecAliases[strings.ReplaceAll(name, ".", "_")]
	}
	if !ok {
		if strings.Contains(name, ".") {
			return nil, false
		}
		module = name
	}
	c, ok := codecs()[module]
	return c, ok
}

// DecodeError is Python's UnicodeDecodeError: the codec could not decode
// the bytes from Start to End (exclusive).
type DecodeError struct {
	// Codec is the codec's name in the message: "utf-8", "utf-16-le",
	// "ascii", "charmap" and so on.
	Codec      string
	Start, End int
	// Byte is the byte at Start.
	Byte   byte
	Reason string
}

// Error words the error as Python's str() does.
func (e *DecodeError) Error() string {
	if e.End-e.Start == 1 {
		return fmt.Sprintf("'%s' codec can't decode byte 0x%02x in position %d: %s", e.Codec, e.Byte, e.Start, e.Reason)
	}
	return fmt.Sprintf("'%s' codec can't decode bytes in position %d-%d: %s", e.Codec, e.Start, e.End-1, e.Reason)
}

// The UnicodeErrors of the UTF-16 and UTF-32 stream readers.
var (
	errNoUTF16BOM = errors.New("UTF-16 stream does not start with BOM")
	errNoUTF32BOM = errors.New("UTF-32 stream does not start with BOM")
)

// Decode is Python's b.decode(codec): the text of b, or the first
// malformed sequence as a *DecodeError.
func (c *Codec) Decode(b []byte) (string, error) {
	out, _, err := c.decode(nil, b, true, false)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// AppendDecodeReplace appends b.decode(codec, "replace") to dst: each
// malformed sequence is one U+FFFD.
func (c *Codec) AppendDecodeReplace(dst, b []byte) []byte {
	out, _, _ := c.decode(dst, b, true, true)
	return out
}

// ReadAll is codecs.getreader(codec)(stream).read() of a stream that
// holds b, as DRF's JSONParser decodes a body: an incomplete sequence at
// the end is left out, not an error, and the UTF-16 and UTF-32 readers
// refuse a text of a character or more without a byte order mark. The
// result may be b itself.
func (c *Codec) ReadAll(b []byte) ([]byte, error) {
	if c.kind == kindUTF8 && utf8.Valid(b) {
		return b, nil
	}
	out, consumed, err := c.decode(nil, b, false, false)
	if err != nil {
		return nil, err
	}
	switch {
	case c.kind == kindUTF16 && consumed >= 2 && !hasBOM(b, c.kind):
		return nil, errNoUTF16BOM
	case c.kind == kindUTF32 && consumed >= 4 && !hasBOM(b, c.kind):
		return nil, errNoUTF32BOM
	}
	return out, nil
}

// hasBOM reports whether b starts with a byte order mark of a UTF-16 or
// UTF-32 codec that looks for one.
func hasBOM(b []byte, kind codecKind) bool {
	_, n := orderOf(b, kind)
	return n > 0
}

// orderOf returns the codec a UTF-16 or UTF-32 text b is decoded with,
// by its byte order mark, and the mark's length.
func orderOf(b []byte, kind codecKind) (codecKind, int) {
	if kind == kindUTF16 {
		switch {
		case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
			return kindUTF16LE, 2
		case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
			return kindUTF16BE, 2
		}
		return kindUTF16LE, 0
	}
	switch {
	case len(b) >= 4 && b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0:
		return kindUTF32LE, 4
	case len(b) >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF:
		return kindUTF32BE, 4
	}
	return kindUTF32LE, 0
}

// utf8BOM is the byte order mark the utf-8-sig codec skips.
const utf8BOM = "\xEF\xBB\xBF"

// decode appends the characters of b to dst, in UTF-8, as Python's
// decoder with its final flag: when final is false an incomplete sequence
// at the end is left undecoded (consumed is where it starts). With
// replace each malformed sequence becomes one U+FFFD; without, decoding
// stops at the first, returned as a *DecodeError.
func (c *Codec) decode(dst, b []byte, final, replace bool) (out []byte, consumed int, err error) {
	kind, start, base := c.kind, 0, 0
	switch kind {
	case kindUTF8Sig:
		kind = kindUTF8
		if !final && len(b) < len(utf8BOM) && strings.HasPrefix(utf8BOM, string(b)) {
			return dst, 0, nil // too short to tell a mark
		}
		if strings.HasPrefix(string(b), utf8BOM) {
			start, base = len(utf8BOM), len(utf8BOM) // Python's positions start after the mark
		}
	case kindUTF16, kindUTF32:
		kind, start = orderOf(b, kind)
	}
	if kind == kindUTF8 && utf8.Valid(b[start:]) {
		return append(dst, b[start:]...), len(b), nil
	}
	i := start
	for i < len(b) {
		r, n, bad, reason := step(kind, c.table, b[i:], final)
		switch {
		case bad > 0:
			if !replace {
				return dst, i, &DecodeError{Codec: kind.errorName(), Start: i - base, End: i - base + bad, Byte: b[i], Reason: reason}
			}
			dst = utf8.AppendRune(dst, utf8.RuneError)
			i += bad
		case n == 0:
			return dst, i, nil
		default:
			dst = utf8.AppendRune(dst, r)
			i += n
		}
	}
	return dst, i, nil
}

// errorName is the codec's name in Python's UnicodeDecodeError.
func (k codecKind) errorName() string {
	switch k {
	case kindUTF16LE:
		return "utf-16-le"
	case kindUTF16BE:
		return "utf-16-be"
	case kindUTF32LE:
		return "utf-32-le"
	case kindUTF32BE:
		return "utf-32-be"
	case kindASCII:
		return "ascii"
	case kindCharmap:
		return "charmap"
	}
	return "utf-8"
}

// step decodes the sequence at the start of b (not empty) with a codec of
// kind (one that reads no byte order mark): the character r of n bytes;
// or, with bad > 0, a malformed sequence of bad bytes, reason as Python
// words it; or neither, for an incomplete sequence at the end of b that
// more bytes could complete, when final is false.
func step(kind codecKind, table *[128]rune, b []byte, final bool) (r rune, n, bad int, reason string) {
	switch kind {
	case kindUTF16LE, kindUTF16BE:
		return stepUTF16(b, kind == kindUTF16BE, final)
	case kindUTF32LE, kindUTF32BE:
		return stepUTF32(b, kind == kindUTF32BE, final)
	case kindUTF8:
		return stepUTF8(b, final)
	}
	if b[0] < utf8.RuneSelf {
		return rune(b[0]), 1, 0, ""
	}
	switch kind {
	case kindLatin1:
		return rune(b[0]), 1, 0, ""
	case kindASCII:
		return 0, 0, 1, "ordinal not in range(128)"
	}
	if r := table[b[0]-0x80]; r != 0xFFFE {
		return r, 1, 0, ""
	}
	return 0, 0, 1, "character maps to <undefined>"
}

// stepUTF8 is step for UTF-8: a malformed sequence is the maximal part of
// one that could have begun a character, as in Python and Unicode's
// recommendation.
func stepUTF8(b []byte, final bool) (r rune, n, bad int, reason string) {
	c := b[0]
	if c < utf8.RuneSelf {
		return rune(c), 1, 0, ""
	}
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 0, 0, 1, "invalid start byte"
	}
	for k := 1; k <= need; k++ {
		if k == len(b) {
			if final {
				return 0, 0, k, "unexpected end of data"
			}
			return 0, 0, 0, ""
		}
		if b[k] < lo || b[k] > hi {
			return 0, 0, k, "invalid continuation byte"
		}
		lo, hi = 0x80, 0xBF
	}
	r, n = utf8.DecodeRune(b)
	return r, n, 0, ""
}

// stepUTF16 is step for UTF-16 in either byte order.
func stepUTF16(b []byte, big, final bool) (r rune, n, bad int, reason string) {
	unit := func(i int) rune {
		if big {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	if len(b) < 2 {
		if final {
			return 0, 0, len(b), "truncated data"
		}
		return 0, 0, 0, ""
	}
	u := unit(0)
	switch {
	case u < 0xD800 || u > 0xDFFF:
		return u, 2, 0, ""
	case u >= 0xDC00:
		return 0, 0, 2, "illegal encoding"
	case len(b) < 4:
		if final {
			return 0, 0, len(b), "unexpected end of data"
		}
		return 0, 0, 0, ""
	}
	if u2 := unit(2); u2 >= 0xDC00 && u2 <= 0xDFFF {
		return 0x10000 + (u-0xD800)<<10 + (u2 - 0xDC00), 4, 0, ""
	}
	return 0, 0, 2, "illegal UTF-16 surrogate"
}

// stepUTF32 is step for UTF-32 in either byte order.
func stepUTF32(b []byte, big, final bool) (r rune, n, bad int, reason string) {
	if len(b) < 4 {
		if final {
			return 0, 0, len(b), "truncated data"
		}
		return 0, 0, 0, ""
	}
	var u uint32
	if big {
		u = uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	} else {
		u = uint32(b[3])<<24 | uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0])
	}
	switch {
	case u > unicode.MaxRune:
		return 0, 0, 4, "code point not in range(0x110000)"
	case u >= 0xD800 && u <= 0xDFFF:
		return 0, 0, 4, "code point in surrogate code point range(0xd800, 0xe000)"
	}
	return rune(u), 4, 0, ""
}
