package migrations

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
)

// namesDigest is Django's names_digest: the first length hex digits of
// the MD5 of the names, concatenated.
func namesDigest(length int, names ...string) string {
	h := md5.New()
	for _, n := range names {
		h.Write([]byte(n))
	}
	return hex.EncodeToString(h.Sum(nil))[:length]
}

// indexName is Django's BaseDatabaseSchemaEditor._create_index_name: the
// table, the columns and a hash of both with suffix, shortened to the
// dialect's longest identifier.
func indexName(maxLength int, table string, columns []string, suffix string) string {
	hashSuffix := namesDigest(8, append([]string{table}, columns...)...) + suffix
	name := table + "_" + strings.Join(columns, "_") + "_" + hashSuffix
	if len(name) <= maxLength {
		return name
	}
	if len(hashSuffix) > maxLength/3 {
		hashSuffix = hashSuffix[:maxLength/3]
	}
	other := (maxLength-len(hashSuffix))/2 - 1
	cols := strings.Join(columns, "_")
	name = cut(table, other) + "_" + cut(cols, other) + "_" + hashSuffix
	if name[0] == '_' || name[0] >= '0' && name[0] <= '9' {
		name = "D" + name[:len(name)-1]
	}
	return name
}

// cut is s[:n], or s when it is shorter.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// autoIndexName is the name Django's models.Index gives an index without
// one (Index.set_name_with_model): the table's first 11 characters, the
// first column's first 7, and a hash of the table, the columns ("-"
// before a descending one) and "idx".
func autoIndexName(table string, columns []string) string {
	first := strings.TrimPrefix(columns[0], "-")
	hash := append([]string{table}, columns...)
	hash = append(hash, "idx")
	name := cut(table, 11) + "_" + cut(first, 7) + "_" + namesDigest(6, hash...) + "_idx"
	if name[0] == '_' || name[0] >= '0' && name[0] <= '9' {
		name = "D" + name[1:]
	}
	return name
}

// quoteName is Django's quote_name on SQLite and PostgreSQL.
func quoteName(name string) string {
	if strings.HasPrefix(name, `"`) && strings.HasSuffix(name, `"`) {
		return name
	}
	return `"` + name + `"`
}
