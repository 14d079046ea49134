// Package translation is Django's django.utils.translation with its
// LocaleMiddleware: it picks the language of each request from the
// django_language cookie, then Accept-Language, against LANGUAGES, with
// LANGUAGE_CODE as the fallback, and has the exception handler answer in
// it, with DRF's and Django's own translations of their messages
// (generated from the installed Debian packages by
// scripts/generate-translations). It is off unless LocaleMiddleware
// wraps the API, as LocaleMiddleware is not in the MIDDLEWARE of
// Django's startproject. URL prefixes (i18n_patterns) are not read.
package translation

import (
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/pycompat"
)

// Config is the settings LocaleMiddleware reads, by Django's names. Its
// zero value is Django's defaults at the DRF 3.18 level.
type Config struct {
	// LanguageCode: LANGUAGE_CODE, the language of requests that ask for
	// none of LANGUAGES; "" gives "en-us".
	LanguageCode string
	// Languages: the codes of LANGUAGES, the languages a request may
	// choose; nil gives Django's list at the level.
	Languages []string
	// LanguageCookieName: LANGUAGE_COOKIE_NAME; "" gives
	// "django_language".
	LanguageCookieName string
	// UseThousandSeparator: USE_THOUSAND_SEPARATOR, localized decimals
	// (a serializer field's localize) written with their digits grouped
	// ("1 234,5" in Polish), and read with or without.
	UseThousandSeparator bool
	// Compatibility is the DRF and Django release whose catalogs and
	// rules apply (framework.Settings.Compatibility).
	Compatibility framework.Compatibility
}

// languageCodeMaxLength is Django's LANGUAGE_CODE_MAX_LENGTH.
const languageCodeMaxLength = 500

// languageCode is Django's language_code_re.
var languageCode = regexp.MustCompile(`(?i)^[a-z]{1,8}(?:-[a-z0-9]{1,8})*(?:@[a-z0-9]{1,20})?$`)

// locale chooses the language of requests as Django's
// get_language_from_request does; LocaleMiddleware builds one.
type locale struct {
	catalog      *catalog
	languageCode string
	cookie       string
	// languages are LANGUAGES' codes as Django looks them up (lower-case
	// from Django 4.2 on), in order.
	languages []string
	known     map[string]bool
	level     compat.Level
	// numbers are the number formats of the languages a request may be
	// answered in (LANGUAGES and LANGUAGE_CODE), by lower-case code; nil
	// for those that read and write numbers as formats.English does.
	numbers map[string]*formats.Number
}

// newLocale checks c and compiles the catalogs of its level; an invalid
// language code is an error naming it.
func newLocale(c Config) (*locale, error) {
	cat, err := loadCatalog(c.Compatibility)
	if err != nil {
		return nil, err
	}
	l := &locale{catalog: cat, languageCode: c.LanguageCode, cookie: c.LanguageCookieName, level: c.Compatibility, known: map[string]bool{}}
	if l.languageCode == "" {
		l.languageCode = "en-us"
	}
	if l.cookie == "" {
		l.cookie = "django_language"
	}
	if !languageCode.MatchString(l.languageCode) {
		return nil, fmt.Errorf("translation: LanguageCode %q is not a language code", l.languageCode)
	}
	langs := c.Languages
	if langs == nil {
		langs = cat.languages
	}
	for _, code := range langs {
		if !languageCode.MatchString(code) {
			return nil, fmt.Errorf("translation: Languages: %q is not a language code", code)
		}
		if l.level != compat.DRF314 {
			code = strings.ToLower(code)
		}
		l.languages = append(l.languages, code)
		l.known[code] = true
	}
	l.numbers = map[string]*formats.Number{}
	for _, code := range slices.Concat(l.languages, []string{l.languageCode}) {
		l.numbers[strings.ToLower(code)] = cat.number(code, c.UseThousandSeparator)
	}
	return l, nil
}

// languageFrom returns the language Django's get_language_from_request
// chooses for r (without i18n_patterns): the django_language cookie's
// when LANGUAGES has it, else the first supported one of
// Accept-Language by q-value, else LANGUAGE_CODE.
func (l *locale) languageFrom(r *http.Request) string {
	if code, ok := l.cookieValue(r); ok {
		if l.known[code] && l.checkForLanguage(code) {
			return code
		}
		if v, ok := l.supportedVariant(code); ok {
			return v
		}
	}
	for _, al := range parseAcceptLanguage(strings.Join(r.Header.Values("Accept-Language"), ","), l.level) {
		if al.lang == "*" {
			break
		}
		if !languageCode.MatchString(al.lang) {
			continue
		}
		if v, ok := l.supportedVariant(al.lang); ok {
			return v
		}
	}
	if v, ok := l.supportedVariant(l.languageCode); ok {
		return v
	}
	return l.languageCode
}

// cookieValue is the language cookie's value; of several, the last, as
// Django's parse_cookie keeps it.
func (l *locale) cookieValue(r *http.Request) (string, bool) {
	if len(r.Header["Cookie"]) == 0 {
		return "", false
	}
	v, found := "", false
	for _, c := range r.Cookies() {
		if c.Name == l.cookie {
			v, found = c.Value, true
		}
	}
	return v, found
}

// translator returns the translations of the language code, nil when
// the language has none (English).
func (l *locale) translator(code string) *translations {
	code = strings.ToLower(code)
	for {
		if t, ok := l.catalog.langs[code]; ok {
			return t
		}
		i := strings.LastIndexByte(code, '-')
		if i < 0 {
			return nil
		}
		code = code[:i]
	}
}

// supportedVariant is Django's get_supported_language_variant (not
// strict): code, its LANG_INFO fallbacks and its shorter prefixes when
// LANGUAGES has them and a catalog exists, else the first of LANGUAGES
// in the same generic language ("fr-ca" for "fr-fr").
func (l *locale) supportedVariant(code string) (string, bool) {
	if code == "" {
		return "", false
	}
	if utf8.RuneCountInString(code) > languageCodeMaxLength {
		r := []rune(code)[:languageCodeMaxLength]
		i := lastRune(r, '-')
		if i <= 0 {
			return "", false
		}
		code = string(r[:i])
	}
	possible := append([]string{code}, l.catalog.file.Fallbacks[code]...)
	for i := strings.LastIndexByte(code, '-'); i > -1; i = strings.LastIndexByte(code[:i], '-') {
		possible = append(possible, code[:i])
	}
	generic := possible[len(possible)-1]
	for _, p := range possible {
		if l.known[strings.ToLower(p)] && l.checkForLanguage(p) {
			return p, true
		}
	}
	for _, s := range l.languages {
		if strings.HasPrefix(s, generic+"-") {
			return s, true
		}
	}
	return "", false
}

// checkForLanguage is Django's check_for_language: whether a catalog of
// the language is installed.
func (l *locale) checkForLanguage(code string) bool {
	if utf8.RuneCountInString(code) > languageCodeMaxLength || !languageCode.MatchString(code) {
		return false
	}
	lower := strings.ToLower(code)
	if l.catalog.available[lower] {
		return true
	}
	if slices.Contains(l.catalog.languages, lower) {
		return false
	}
	// A code outside Django's LANGUAGES: gettext finds the locale or its
	// language alone.
	loc := toLocale(code, l.level)
	lang, _, _ := strings.Cut(loc, "_")
	return l.catalog.locales[loc] || l.catalog.locales[lang]
}

// toLocale is Django's to_locale: "en-us" is "en_US", "sr-latn" "sr_Latn".
func toLocale(language string, level compat.Level) string {
	lang, country, found := strings.Cut(strings.ToLower(language), "-")
	if !found {
		if level == compat.DRF314 {
			return lang
		}
		if len(language) <= 3 {
			return strings.ToLower(language)
		}
		return strings.ToLower(language[:3]) + language[3:]
	}
	country, tail, hasTail := strings.Cut(country, "-")
	if len(country) > 2 {
		country = strings.ToUpper(country[:1]) + country[1:]
	} else {
		country = strings.ToUpper(country)
	}
	if hasTail {
		country += "-" + tail
	}
	return lang + "_" + country
}

// acceptLanguage is a language range of Accept-Language and its q-value.
type acceptLanguage struct {
	lang string
	q    float64
}

// acceptLanguageRes are Django's accept_language_re with Python's
// Unicode \s: Django 3.2's q-values take any Unicode digits (\d), Django
// 5.2's ASCII ones.
var acceptLanguageRes = map[bool]*regexp.Regexp{
	true:  acceptLanguageRe(`\p{Nd}`),
	false: acceptLanguageRe(`[0-9]`),
}

func acceptLanguageRe(digit string) *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)(?:` + ws + `*;` + ws + `*q=(0(?:\.` + digit + `{0,3})?|1(?:\.0{0,3})?))?(?:` + ws + `*,` + ws + `*|$)`)
}

// ws is the characters Python's \s matches in a str pattern.
const ws = `[\t\n\v\f\r \x1c-\x1f\x85\p{Z}]`

// parseAcceptLanguage is Django's parse_accept_lang_header: the ranges
// of the header (lower-cased) by q-value, highest first; none when the
// header is malformed anywhere. A header over 500 characters is read up
// to its last comma within them.
func parseAcceptLanguage(header string, level compat.Level) []acceptLanguage {
	if utf8.RuneCountInString(header) > languageCodeMaxLength {
		r := []rune(header)[:languageCodeMaxLength]
		i := lastRune(r, ',')
		if i <= 0 {
			return nil
		}
		header = string(r[:i])
	}
	s := pycompat.Lower(header)
	var out []acceptLanguage
	last := 0
	for _, m := range acceptLanguageRes[level == compat.DRF314].FindAllStringSubmatchIndex(s, -1) {
		if m[0] != last {
			return nil
		}
		q := 1.0
		if m[4] >= 0 {
			q = parseQ(s[m[4]:m[5]])
		}
		out = append(out, acceptLanguage{lang: s[m[2]:m[3]], q: q})
		last = m[1]
	}
	if last != len(s) {
		return nil
	}
	slices.SortStableFunc(out, func(a, b acceptLanguage) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return 0
	})
	return out
}

// parseQ is Python's float of a q-value, whose digits may be
// Unicode decimal digits at Django 3.2.
func parseQ(s string) float64 {
	whole, frac, _ := strings.Cut(s, ".")
	q, _ := pycompat.Atoi(whole)
	f := float64(q)
	if frac != "" {
		n, _ := pycompat.Atoi(frac)
		f += float64(n) / math.Pow10(utf8.RuneCountInString(frac))
	}
	return f
}

// lastRune is the index of the last c in r, -1 when none.
func lastRune(r []rune, c rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == c {
			return i
		}
	}
	return -1
}
