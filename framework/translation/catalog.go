package translation

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/formats"
)

// The catalogs scripts/generate-translations reads from the installed
// Debian packages, one per compatibility level.
//
//go:embed catalogs/drf314.json catalogs/drf318.json
var catalogFiles embed.FS

// catalogFile is a generated catalog as stored.
type catalogFile struct {
	DRF, Django string
	// Languages are the codes of Django's LANGUAGES, in its order.
	Languages []string
	// Available are the codes of Languages Django has a catalog for
	// (check_for_language).
	Available []string
	// Fallbacks are LANG_INFO's fallbacks ("zh-hk": ["zh-hant"]).
	Fallbacks map[string][]string
	// Locales are the locale names of the installed catalogs ("pt_BR").
	Locales []string
	// Joined are messages DRF joins with a further sentence.
	Joined []string
	// Messages are the msgids: [singular] or [singular, plural, the
	// format argument that counts ("" for the only one)].
	Messages [][]string
	// Catalogs hold each language's translations by message index: a
	// string, or {"plural": expr, "forms": [...]}.
	Catalogs map[string]map[string]json.RawMessage
	// Numbers are Django's number formats by lower-case language code,
	// "" the global settings' (get_format under USE_L10N).
	Numbers map[string]numberFormat
}

// numberFormat is a language's number format as stored.
type numberFormat struct {
	Decimal      string `json:"decimal"`
	Thousand     string `json:"thousand"`
	ThousandNFKD string `json:"thousand_nfkd"`
	Grouping     []int  `json:"grouping"`
}

// number returns the number format of the language code as Django's
// get_format finds it (the code's, else its generic language's, else the
// global settings'), under USE_THOUSAND_SEPARATOR when thousands is set;
// nil when it reads and writes numbers as formats.English does.
func (c *catalog) number(code string, thousands bool) *formats.Number {
	code = strings.ToLower(code)
	nf, ok := c.file.Numbers[code]
	if !ok {
		generic, _, _ := strings.Cut(code, "-")
		if nf, ok = c.file.Numbers[generic]; !ok {
			nf = c.file.Numbers[""]
		}
	}
	if nf.Decimal == "." && !thousands {
		return nil
	}
	return &formats.Number{Decimal: nf.Decimal, Thousand: nf.Thousand, ThousandNFKD: nf.ThousandNFKD,
		Grouping: nf.Grouping, UseThousandSeparator: thousands}
}

// catalog is one level's catalogs, compiled: the matchers of the
// messages' English text, and each language's translations.
type catalog struct {
	file      catalogFile
	languages []string
	available map[string]bool
	locales   map[string]bool
	messages  []message
	exact     map[string]int
	patterns  []pattern
	langs     map[string]*translations
}

// message is a msgid: its singular and plural forms, split into literal
// text and arguments.
type message struct {
	singular, plural template
	count            string
}

// template is a message's text as literal parts around its arguments:
// len(lits) == len(args)+1.
type template struct {
	lits []string
	args []string
}

// placeholder finds the arguments of a msgid: DRF's str.format fields
// ({max_length}, {code_point:X}) and Django's %-formats (%(name)s, %d).
var placeholder = regexp.MustCompile(`\{(\w+)(?::[^{}]*)?\}|%\((\w+)\)[sdr]|%[sd]`)

func parseTemplate(s string) template {
	var t template
	last := 0
	for i, m := range placeholder.FindAllStringSubmatchIndex(s, -1) {
		t.lits = append(t.lits, unescape(s[last:m[0]]))
		name := strconv.Itoa(i)
		switch {
		case m[2] >= 0:
			name = s[m[2]:m[3]]
		case m[4] >= 0:
			name = s[m[4]:m[5]]
		}
		t.args = append(t.args, name)
		last = m[1]
	}
	t.lits = append(t.lits, unescape(s[last:]))
	return t
}

// unescape is the literal text of a msgid's part: %% and doubled braces
// are one character once formatted.
func unescape(s string) string {
	if !strings.ContainsAny(s, "%{}") {
		return s
	}
	return strings.NewReplacer("%%", "%", "{{", "{", "}}", "}").Replace(s)
}

// format fills t's arguments from args, by name.
func (t template) format(args map[string]string) string {
	var b strings.Builder
	for i, l := range t.lits {
		b.WriteString(l)
		if i < len(t.args) {
			b.WriteString(args[t.args[i]])
		}
	}
	return b.String()
}

// pattern recovers the arguments of one form of a message from its
// formatted English text.
type pattern struct {
	msg    int
	prefix string
	suffix string
	// literal is the length of the form's literal text.
	literal int
	re      *regexp.Regexp
	args    []string
}

func newPattern(msg int, t template) pattern {
	var re strings.Builder
	re.WriteString(`^(?s)`)
	n := 0
	for i, l := range t.lits {
		n += len(l)
		re.WriteString(regexp.QuoteMeta(l))
		if i < len(t.args) {
			re.WriteString(`(.*?)`)
		}
	}
	re.WriteString(`$`)
	return pattern{msg: msg, prefix: t.lits[0], suffix: t.lits[len(t.lits)-1], literal: n,
		re: regexp.MustCompile(re.String()), args: t.args}
}

// catalogs compile each level's catalog the first time it is asked for.
var catalogs = map[compat.Level]func() (*catalog, error){
	compat.DRF314:  sync.OnceValues(func() (*catalog, error) { return compileCatalog("drf314") }),
	compat.Current: sync.OnceValues(func() (*catalog, error) { return compileCatalog("drf318") }),
}

// loadCatalog returns the compiled catalog of level.
func loadCatalog(level compat.Level) (*catalog, error) {
	load, ok := catalogs[level]
	if !ok {
		return nil, fmt.Errorf("translation: Compatibility %d is no level of framework.Settings", level)
	}
	return load()
}

func compileCatalog(name string) (*catalog, error) {
	b, err := catalogFiles.ReadFile("catalogs/" + name + ".json")
	if err != nil {
		return nil, err
	}
	c := &catalog{exact: map[string]int{}, available: map[string]bool{}, locales: map[string]bool{}, langs: map[string]*translations{}}
	if err := json.Unmarshal(b, &c.file); err != nil {
		return nil, fmt.Errorf("translation: catalogs/%s.json: %w", name, err)
	}
	f := &c.file
	c.languages = f.Languages
	for _, code := range f.Available {
		c.available[code] = true
	}
	for _, l := range f.Locales {
		c.locales[l] = true
	}
	for i, m := range f.Messages {
		msg := message{singular: parseTemplate(m[0])}
		if len(m) == 3 {
			msg.plural, msg.count = parseTemplate(m[1]), m[2]
		}
		c.messages = append(c.messages, msg)
		if len(m) == 1 && len(msg.singular.args) == 0 {
			c.exact[msg.singular.lits[0]] = i
			continue
		}
		c.patterns = append(c.patterns, newPattern(i, msg.singular))
		if len(m) == 3 {
			c.patterns = append(c.patterns, newPattern(i, msg.plural))
		}
	}
	// The most literal text first, so that a message never loses to a
	// more general one.
	slices.SortStableFunc(c.patterns, func(a, b pattern) int {
		return b.literal - a.literal
	})
	for code, entries := range f.Catalogs {
		l, err := c.compileLanguage(entries)
		if err != nil {
			return nil, fmt.Errorf("translation: catalogs/%s.json: %s: %w", name, code, err)
		}
		c.langs[code] = l
	}
	return c, nil
}

// entry is a message's translation: one template, or the plural forms
// and the function that picks one.
type entry struct {
	text   template
	forms  []template
	choose func(n int) int
}

func (c *catalog) compileLanguage(entries map[string]json.RawMessage) (*translations, error) {
	l := &translations{catalog: c, entries: make([]*entry, len(c.messages))}
	for key, raw := range entries {
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(c.messages) {
			return nil, fmt.Errorf("no message %q", key)
		}
		var text string
		if json.Unmarshal(raw, &text) == nil {
			l.entries[i] = &entry{text: parseTemplate(text)}
			continue
		}
		var p struct {
			Plural string
			Forms  []string
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		choose, err := compilePlural(p.Plural)
		if err != nil {
			return nil, err
		}
		e := &entry{choose: choose}
		for _, f := range p.Forms {
			e.forms = append(e.forms, parseTemplate(f))
		}
		l.entries[i] = e
	}
	return l, nil
}

// translations are the translations of one language: a framework.Translator.
type translations struct {
	catalog *catalog
	entries []*entry
}

// Translate returns msg in the language: the message whose English text
// it is, formatted with the arguments recovered from msg; a message
// that DRF joins with a further sentence (Throttled's) is translated
// apart from the sentence. Text that is no DRF or Django message comes
// back unchanged.
func (l *translations) Translate(msg string) string {
	if s, ok := l.translate(msg); ok {
		return s
	}
	for _, j := range l.catalog.file.Joined {
		if rest, ok := strings.CutPrefix(msg, j+" "); ok {
			first, _ := l.translate(j)
			next, _ := l.translate(rest)
			return first + " " + next
		}
	}
	return msg
}

func (l *translations) translate(msg string) (string, bool) {
	c := l.catalog
	if i, ok := c.exact[msg]; ok {
		if e := l.entries[i]; e != nil && e.forms == nil {
			return e.text.lits[0], true
		}
		return msg, false
	}
	for k := range c.patterns {
		p := &c.patterns[k]
		if l.entries[p.msg] == nil || !strings.HasPrefix(msg, p.prefix) || !strings.HasSuffix(msg, p.suffix) {
			continue
		}
		m := p.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		args := make(map[string]string, len(p.args))
		for i, name := range p.args {
			if _, seen := args[name]; !seen {
				args[name] = m[i+1]
			}
		}
		e := l.entries[p.msg]
		if e.forms == nil {
			return e.text.format(args), true
		}
		count := c.messages[p.msg].count
		if count == "" && len(p.args) > 0 {
			count = p.args[0]
		}
		n, err := strconv.Atoi(args[count])
		if err != nil {
			return msg, false
		}
		form := e.choose(n)
		if form < 0 || form >= len(e.forms) {
			form = len(e.forms) - 1
		}
		return e.forms[form].format(args), true
	}
	return msg, false
}
