package serializers

import (
	"fmt"
	"math/big"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/idna"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// The DRF field classes a field can be beyond its Go type's (field.kind).
const (
	kindChoice   = "choice"          // ChoiceField
	kindMultiple = "multiple choice" // MultipleChoiceField
	kindEmail    = "email"           // EmailField
	kindURL      = "url"             // URLField
	kindSlug     = "slug"            // SlugField
	kindRegex    = "regex"           // RegexField
	kindIP       = "ip"              // IPAddressField
)

// DRF's and Django's messages of the fields of this file.
const (
	msgInvalidChoice = "\"%s\" is not a valid choice."
	msgNotAList      = "Expected a list of items but got type \"%s\"."
	msgNotADict      = "Expected a dictionary of items but got type \"%s\"."
	msgEmptyList     = "This list may not be empty."
	msgEmptyDict     = "This dictionary may not be empty."
	msgEmptyChoices  = "This selection may not be empty."
	msgEmail         = "Enter a valid email address."
	msgURL           = "Enter a valid URL."
	msgSlug          = "Enter a valid \"slug\" consisting of letters, numbers, underscores or hyphens."
	msgUnicodeSlug   = "Enter a valid \"slug\" consisting of Unicode letters, numbers, underscores, or hyphens."
	msgRegex         = "This value does not match the required pattern."
	msgIP            = "Enter a valid IPv4 or IPv6 address."
	msgIPv4          = "Enter a valid IPv4 address."
	msgIPv6          = "Enter a valid IPv6 address."
)

// choice is one valid value of a choice field: its text (the key DRF
// matches str(input) against), label and value in the field's kind.
type choice struct {
	text, label string
	v           structs.Value
}

// Choices makes the field a ChoiceField of those values (DRF's
// ChoiceField(choices=...)), or, for a []string field, a
// MultipleChoiceField. A model field's choices (models.Meta.Choices) need
// no option. field is the field's JSON name; each Choice's Value must be
// a valid value of the field's type (checked at setup).
func Choices(field string, choices []models.Choice) Option {
	return optionFunc(func(o *options) {
		o.choices = append(o.choices, fieldChoices{field: field, choices: choices})
	})
}

type fieldChoices struct {
	field   string
	choices []models.Choice
}

// Regex makes the field a RegexField: its text must match pattern (Go's
// regexp syntax, searched as Django's RegexValidator searches), else
// "This value does not match the required pattern.".
func Regex(field, pattern string) Option {
	return optionFunc(func(o *options) { o.regexes = append(o.regexes, [2]string{field, pattern}) })
}

// setChoices makes f a choice field of cs, parsing each value at setup.
func (f *field) setChoices(cs []models.Choice) error {
	if f.container != nil {
		if f.container.elem.Kind != structs.String || f.container.isMap {
			return fmt.Errorf("choices need a scalar field or a []string")
		}
		f.kind = kindMultiple
	} else {
		if f.sf == nil || f.sf.Kind == structs.Custom && f.format != "decimal" || f.sf.Kind == structs.Unsupported || f.sf.Kind == structs.Time {
			return fmt.Errorf("choices need a string, number, boolean or decimal field")
		}
		f.kind = kindChoice
	}
	f.choices = f.choices[:0]
	for _, c := range cs {
		v := structs.Value{Kind: structs.String, S: c.Value}
		if _, ok := new(big.Rat).SetString(c.Value); !ok && f.container == nil && f.sf.Kind == structs.Custom {
			return fmt.Errorf("choice %q is not a decimal", c.Value)
		}
		if f.container == nil && f.sf.Kind != structs.String && f.sf.Kind != structs.Custom {
			var err error
			if v, err = f.sf.Parse(c.Value); err != nil {
				return fmt.Errorf("choice %q is not a value of the field", c.Value)
			}
		}
		f.choices = append(f.choices, choice{text: c.Value, label: c.Label, v: v})
	}
	f.maxLength, f.minLength = -1, -1
	return nil
}

// appendDecimalFloat writes a decimal's text as DRF's JSONEncoder writes
// a Decimal (a choice's, or a DecimalField's of coerce_to_string=False):
// its float().
func appendDecimalFloat(b []byte, text string) []byte {
	x, _ := strconv.ParseFloat(text, 64)
	return structs.AppendPythonFloat(b, x)
}

// toChoice is DRF's ChoiceField.to_internal_value: "" when blank is
// allowed, else the choice whose text is str(input).
func (f *field) toChoice(raw any) (structs.Value, []string) {
	if raw == "" && f.allowBlank {
		return structs.Value{Kind: f.sf.Kind}, nil
	}
	text := pythonText(raw)
	for _, c := range f.choices {
		if c.text == text {
			return c.v, nil
		}
	}
	if f.more.filePath != nil {
		return structs.Value{}, []string{fmt.Sprintf(msgInvalidPath, text)}
	}
	return structs.Value{}, []string{fmt.Sprintf(msgInvalidChoice, text)}
}

// pythonText is Python's str() of a JSON value, as DRF's messages print
// their input: True, 1.5, ['a', 1], {'a': None}.
func pythonText(raw any) string {
	if s, ok := pythonStr(raw); ok {
		return s
	}
	return pythonRepr(raw)
}

func pythonRepr(raw any) string {
	switch x := raw.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return "'" + strings.ReplaceAll(strings.ReplaceAll(x, `\`, `\\`), "'", `\'`) + "'"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pythonRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range sortedKeys(x) {
			parts = append(parts, pythonRepr(k)+": "+pythonRepr(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	s, _ := pythonStr(raw)
	return s
}

// checkText runs the validators of the text fields (DRF's EmailField,
// URLField, SlugField and RegexField) on a valid string.
func (f *field) checkText(s string) string {
	switch f.kind {
	case kindEmail:
		if !validEmail(s) {
			return msgEmail
		}
	case kindURL:
		if !validURL(s) {
			return msgURL
		}
	case kindSlug:
		if !f.validSlug(s) {
			if f.more.slugUnicode {
				return msgUnicodeSlug
			}
			return msgSlug
		}
	case kindRegex:
		if !f.pattern.MatchString(s) {
			return msgRegex
		}
	}
	return ""
}

// toIP is DRF's IPAddressField of the model field's protocol: text
// only; an address with a colon is cleaned as Django's
// clean_ipv6_address (an IPv4-mapped one unpacked when the protocol is
// "both"), unless the protocol is IPv4; other text is a CharField's,
// then checked by the protocol's validator. DRF 3.14 makes every
// IPAddressField of a model field one of "both" and runs the model
// field's IPv4 or IPv6 validator first, with the model's own validators.
func (f *field) toIP(raw any, level compat.Level) (structs.Value, []string) {
	s, ok := raw.(string)
	if !ok {
		return structs.Value{}, []string{msgIP}
	}
	protocol, modelCheck := f.protocol, ""
	if level == compat.DRF314 && f.modelProtocol {
		protocol, modelCheck = "", f.protocol
	}
	var v structs.Value
	var msgs []string
	if strings.Contains(s, ":") && protocol != "ipv4" {
		a, err := netip.ParseAddr(s)
		if err != nil || !a.Is6() {
			return structs.Value{}, []string{msgIP}
		}
		a = a.WithZone("")
		if a.Is4In6() && protocol == "" {
			a = a.Unmap()
		}
		v = structs.Value{Kind: structs.String, S: a.String()}
	} else {
		if v, msgs = f.toString(raw); v.S == "" || slices.Contains(msgs, msgBlank) || slices.Contains(msgs, msgString) {
			return v, msgs
		}
		if m := ipMessage(v.S, protocol); m != "" {
			msgs = append(msgs, m)
		}
	}
	if m := ipMessage(v.S, modelCheck); modelCheck != "" && m != "" {
		msgs = append([]string{m}, msgs...)
	}
	return v, msgs
}

// ipMessage is the message of Django's IP address validator of protocol
// ("" for both: validate_ipv46_address, "ipv4" validate_ipv4_address,
// "ipv6" validate_ipv6_address) for s, "" when s is valid.
func ipMessage(s, protocol string) string {
	a, err := netip.ParseAddr(s)
	valid := err == nil && a.Zone() == ""
	switch {
	case protocol == "ipv4" && !(valid && a.Is4()):
		return msgIPv4
	case protocol == "ipv6" && !(valid && a.Is6()):
		return msgIPv6
	case !valid:
		return msgIP
	}
	return ""
}

var slugRE = regexp.MustCompile(`^[-a-zA-Z0-9_]+$`)

// validIP46 is Django's validate_ipv46_address.
func validIP46(s string) bool { return ipMessage(s, "") == "" }

// Django 3.2's EmailValidator: the user part, the domain part (a
// lookbehind-free spelling of the same language), a literal address;
// compiled when an address is first validated.
var (
	emailUserRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^[-!#$%&'*+/=?^_` + "`" + `{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_` + "`" + `{}|~0-9A-Z]+)*\z` +
			`|^"([\x01-\x08\x0b\x0c\x0e-\x1f!#-\[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*"\z)`)
	})
	emailDomainRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{1,62}[A-Z0-9])\z`)
	})
	emailLiteralRE = regexp.MustCompile(`(?i)^\[([A-F0-9:.]+)\]\z`)
)

func validEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	user, domain := s[:at], s[at+1:]
	if !emailUserRE().MatchString(user) {
		return false
	}
	if domain == "localhost" || validEmailDomain(domain) {
		return true
	}
	// An internationalized domain, in its punycode.
	ascii, err := idna.Punycode.ToASCII(domain)
	return err == nil && validEmailDomain(ascii)
}

func validEmailDomain(domain string) bool {
	if emailDomainRE().MatchString(domain) {
		return true
	}
	m := emailLiteralRE.FindStringSubmatch(domain)
	return m != nil && validIP46(m[1])
}

// Django 3.2's URLValidator (3.2.25's, whose IPv4 octets have no leading
// zeros), its lookarounds spelled without them; compiled when a URL is
// first validated.
var urlRE = sync.OnceValue(func() *regexp.Regexp {
	const ul = `\x{00a1}-\x{ffff}`
	ipv4 := `(?:0|25[0-5]|2[0-4]\d|1\d?\d?|[1-9]\d?)(?:\.(?:0|25[0-5]|2[0-4]\d|1\d?\d?|[1-9]\d?)){3}`
	ipv6 := `\[[0-9a-f:.]+\]`
	hostname := `[a-z` + ul + `0-9](?:[a-z` + ul + `0-9-]{0,61}[a-z` + ul + `0-9])?`
	domain := `(?:\.[a-z` + ul + `0-9](?:[a-z` + ul + `0-9-]{0,61}[a-z` + ul + `0-9])?)*`
	tld := `\.(?:[a-z` + ul + `][a-z` + ul + `-]{0,61}[a-z` + ul + `]|xn--[a-z0-9]{1,59})\.?`
	host := `(` + hostname + domain + tld + `|localhost)`
	return regexp.MustCompile(`(?i)^(?:[a-z0-9.+-]*)://` +
		`(?:[^\s:@/]+(?::[^\s:@/]*)?@)?` +
		`(?:` + ipv4 + `|` + ipv6 + `|` + host + `)` +
		`(?::\d{2,5})?` +
		`(?:[/?#][^\s]*)?\z`)
})

var urlIPv6HostRE = regexp.MustCompile(`^\[(.+)\](?::\d{2,5})?$`)

func validURL(s string) bool {
	if len(s) > 2048 || strings.ContainsAny(s, "\t\r\n") {
		return false
	}
	scheme, _, _ := strings.Cut(s, "://")
	switch strings.ToLower(scheme) {
	case "http", "https", "ftp", "ftps":
	default:
		return false
	}
	if !urlRE().MatchString(s) {
		return false
	}
	rest := s[len(scheme)+3:]
	netloc := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		netloc = rest[:i]
	}
	if m := urlIPv6HostRE.FindStringSubmatch(netloc); m != nil {
		a, err := netip.ParseAddr(m[1])
		if err != nil || !a.Is6() {
			return false
		}
	}
	host := netloc[strings.LastIndexByte(netloc, '@')+1:]
	if strings.HasPrefix(host, "[") {
		host = host[:strings.IndexByte(host, ']')+1]
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return len(host) <= 253
}
