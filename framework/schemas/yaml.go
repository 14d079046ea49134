package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/go-drf/drf/internal/rawjson"
)

// toYAML converts a JSON value to YAML 1.2 in block style, keeping the order
// of object members. Strings are written plain only when no YAML reader
// could take them for anything else (a number, a boolean, null, an
// indicator); all others are double-quoted with JSON's escapes, which
// YAML's double-quoted style shares.
func toYAML(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("schemas: trailing data after the JSON value")
	}
	var b bytes.Buffer
	switch {
	case n.kind == '{' && len(n.keys) > 0:
		writeMapping(&b, n, 0)
	case n.kind == '[' && len(n.items) > 0:
		writeSequence(&b, n, 0)
	default:
		b.WriteString(n.scalar() + "\n")
	}
	return b.Bytes(), nil
}

// node is a JSON value: an object ('{'), an array ('['), or a scalar
// (0) held as its YAML text.
type node struct {
	kind  byte
	text  string
	keys  []string
	items []*node
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &node{kind: byte(t)}
		for dec.More() {
			if t == '{' {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key.(string))
			}
			item, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, item)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return n, nil
	case string:
		return &node{text: yamlString(t)}, nil
	case json.Number:
		return &node{text: t.String()}, nil
	case bool:
		return &node{text: fmt.Sprint(t)}, nil
	default:
		return &node{text: "null"}, nil
	}
}

// scalar is the node's text on one line: a scalar, or an empty
// collection in flow style.
func (n *node) scalar() string {
	switch n.kind {
	case '{':
		return "{}"
	case '[':
		return "[]"
	}
	return n.text
}

func (n *node) isBlock() bool { return n.kind != 0 && len(n.items) > 0 }

func writeMapping(b *bytes.Buffer, n *node, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, key := range n.keys {
		v := n.items[i]
		b.WriteString(pad + yamlString(key) + ":")
		switch {
		case !v.isBlock():
			b.WriteString(" " + v.scalar() + "\n")
		case v.kind == '{':
			b.WriteByte('\n')
			writeMapping(b, v, indent+2)
		default:
			b.WriteByte('\n')
			writeSequence(b, v, indent+2)
		}
	}
}

func writeSequence(b *bytes.Buffer, n *node, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, v := range n.items {
		if !v.isBlock() {
			b.WriteString(pad + "- " + v.scalar() + "\n")
			continue
		}
		// A collection starts on the dash's line, at the column after it.
		var inner bytes.Buffer
		if v.kind == '{' {
			writeMapping(&inner, v, indent+2)
		} else {
			writeSequence(&inner, v, indent+2)
		}
		b.WriteString(pad + "- ")
		b.Write(inner.Bytes()[indent+2:])
	}
}

// yamlString writes s plain when that is unambiguous, else double-quoted.
func yamlString(s string) string {
	if plainSafe(s) {
		return s
	}
	return string(rawjson.AppendString(nil, s))
}

// plainSafe reports whether s reads back as the same string when written
// plain: it starts with a letter, '/' or '_', holds only letters, digits,
// spaces and a few punctuation marks that are no indicators inside a
// plain scalar, does not end in a space, and is no word YAML 1.1 or 1.2
// reads as a boolean or null.
func plainSafe(s string) bool {
	if s == "" || s[len(s)-1] == ' ' {
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '_') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte(" _-./()'", c) >= 0:
		default:
			return false
		}
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return false
	}
	return true
}
