package migrations

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
)

// Line is one line of what a migration's SQL is: a statement, or a
// comment ("-- Create model Snippet") that sqlmigrate prints before an
// operation's statements.
type Line struct {
	// Comment reports a comment line, Text without the "-- ".
	Comment bool
	// Text is the comment, or the statement as sqlmigrate prints it
	// (without its final ";").
	Text string
	// Parts are the statements Text holds, executed one by one
	// (PostgreSQL's "...; SET CONSTRAINTS ... IMMEDIATE" are two).
	Parts []string
	// Run is a RunGo's function, run in its place inside the migration's
	// transaction; sqlmigrate prints nothing for it.
	Run func(ctx context.Context, tx *sqlx.Tx) error
}

// deferred is a statement Django's schema editor runs at the end (its
// deferred_sql): indexes, unique sets and PostgreSQL's foreign keys. It
// is rendered late, so that a table renamed meanwhile (SQLite's remake)
// is named, and hashed into the index names, as it ends up.
type deferred struct {
	table   string
	columns []string
	render  func(table string) string
}

// editor is Django's schema editor of one dialect, collecting the SQL of
// one migration.
type editor struct {
	dialect  store.Dialect
	lines    []Line
	deferred []*deferred
	// unrendered reports that Django's migration state has not rendered
	// its models yet when the current operation runs: then the operation
	// renders the state after it before the state before it, so that the
	// field it adds or alters is older than the others and a remade
	// table has it first, after the automatic id (Django orders a model's
	// fields by their creation). sqlmigrate starts each migration so;
	// migrate never does, and a remade table has the field last.
	unrendered bool
}

func (e *editor) pg() bool { return e.dialect == store.PostgreSQL }

// maxName is the longest identifier: PostgreSQL's 63, else Django's 200.
func (e *editor) maxName() int {
	if e.pg() {
		return 63
	}
	return 200
}

func (e *editor) comment(text string) { e.lines = append(e.lines, Line{Comment: true, Text: text}) }

func (e *editor) exec(parts ...string) {
	e.lines = append(e.lines, Line{Text: strings.Join(parts, "; "), Parts: parts})
}

func (e *editor) flush() {
	for _, d := range e.deferred {
		e.exec(d.render(d.table))
	}
	e.deferred = nil
}

// unique is Django's field.unique: unique or the primary key.
func unique(f *Field) bool { return f.Unique || f.PrimaryKey }

// dbType is the column type of f on the editor's dialect.
func (e *editor) dbType(f *Field) string {
	kind := f.Kind
	if f.Related != nil {
		kind = f.Related.Kind
		switch kind {
		case "", models.AutoField, models.PositiveIntegerField:
			return "integer"
		case models.BigAutoField, models.PositiveBigIntegerField:
			return "bigint"
		case models.SmallAutoField, models.PositiveSmallIntegerField:
			return "smallint"
		}
	}
	if e.pg() {
		switch kind {
		case models.AutoField:
			return "serial"
		case models.BigAutoField:
			return "bigserial"
		case models.SmallAutoField:
			return "smallserial"
		case models.IntegerField, models.PositiveIntegerField:
			return "integer"
		case models.BigIntegerField, models.PositiveBigIntegerField:
			return "bigint"
		case models.SmallIntegerField, models.PositiveSmallIntegerField:
			return "smallint"
		case models.BooleanField:
			return "boolean"
		case models.FloatField:
			return "double precision"
		case models.DecimalField:
			return fmt.Sprintf("numeric(%d, %d)", f.MaxDigits, f.DecimalPlaces)
		case models.TextField:
			return "text"
		case models.GenericIPAddressField:
			return "inet"
		case models.DateTimeField:
			return "timestamp with time zone"
		case models.DateField:
			return "date"
		case models.TimeField:
			return "time"
		case models.DurationField:
			return "interval"
		case models.UUIDField:
			return "uuid"
		case models.JSONField:
			return "jsonb"
		case models.BinaryField:
			return "bytea"
		}
	} else {
		switch kind {
		case models.AutoField, models.BigAutoField, models.SmallAutoField, models.IntegerField:
			return "integer"
		case models.BigIntegerField:
			return "bigint"
		case models.SmallIntegerField:
			return "smallint"
		case models.PositiveIntegerField:
			return "integer unsigned"
		case models.PositiveBigIntegerField:
			return "bigint unsigned"
		case models.PositiveSmallIntegerField:
			return "smallint unsigned"
		case models.BooleanField:
			return "bool"
		case models.FloatField:
			return "real"
		case models.DecimalField:
			return "decimal"
		case models.TextField, models.JSONField:
			return "text"
		case models.GenericIPAddressField:
			return "char(39)"
		case models.DateTimeField:
			return "datetime"
		case models.DateField:
			return "date"
		case models.TimeField:
			return "time"
		case models.DurationField:
			return "bigint"
		case models.UUIDField:
			return "char(32)"
		case models.BinaryField:
			return "BLOB"
		}
	}
	// CharField, EmailField, URLField, SlugField.
	return fmt.Sprintf("varchar(%d)", f.MaxLength)
}

// dataType is Django's _field_data_type on PostgreSQL: the type without
// its parameters, to tell a change of type from one of length.
func (e *editor) dataType(f *Field) string {
	t := e.dbType(f)
	if i := strings.IndexByte(t, '('); i >= 0 {
		return t[:i]
	}
	return t
}

// check is the CHECK constraint of f's column, "" for none.
func (e *editor) check(f *Field) string {
	if f.Related != nil {
		return ""
	}
	col := quoteName(f.Column)
	switch f.Kind {
	case models.PositiveIntegerField, models.PositiveBigIntegerField, models.PositiveSmallIntegerField:
		return col + " >= 0"
	case models.JSONField:
		if !e.pg() {
			return "(JSON_VALID(" + col + ") OR " + col + " IS NULL)"
		}
	}
	return ""
}

func auto(f *Field) bool {
	return f.Related == nil && (f.Kind == models.AutoField || f.Kind == models.BigAutoField || f.Kind == models.SmallAutoField)
}

// columnSQL is Django's column_sql (with its CHECK and AUTOINCREMENT, as
// table_sql and add_field append them): the column's definition after
// its name. withDefault adds the DEFAULT of a new column.
func (e *editor) columnSQL(f *Field, withDefault bool) string {
	sql := e.dbType(f)
	if withDefault {
		if v, ok := e.effectiveDefault(f); ok {
			sql += " DEFAULT " + v
		}
	}
	if f.Null {
		sql += " NULL"
	} else {
		sql += " NOT NULL"
	}
	if f.PrimaryKey {
		sql += " PRIMARY KEY"
	} else if f.Unique {
		sql += " UNIQUE"
	}
	if c := e.check(f); c != "" {
		sql += " CHECK (" + c + ")"
	}
	if auto(f) && !e.pg() {
		sql += " AUTOINCREMENT"
	}
	return sql
}

// effectiveDefault is Django's effective_default, quoted as its
// quote_value quotes it into sqlmigrate's output: the default, else the
// empty string for a blank string column that cannot be null; false
// when there is none.
func (e *editor) effectiveDefault(f *Field) (string, bool) {
	switch {
	case f.HasDefault:
		return e.quoteValue(f, f.Default), true
	case !f.Null && f.Blank && emptyStringsAllowed(f.Kind):
		if f.Kind == models.BinaryField {
			if e.pg() {
				return `'\x'::bytea`, true
			}
			return "X''", true
		}
		return "''", true
	}
	return "", false
}

// emptyStringsAllowed is Django's Field.empty_strings_allowed.
func emptyStringsAllowed(k models.Kind) bool {
	switch k {
	case models.CharField, models.TextField, models.EmailField, models.URLField, models.SlugField,
		models.BinaryField, models.GenericIPAddressField, models.FileField, models.ImageField:
		return true
	}
	return false
}

// quoteValue renders a default's text as the dialect's quote_value
// renders the value Django would hold for it.
func (e *editor) quoteValue(f *Field, text string) string {
	switch f.Kind {
	case models.BooleanField:
		b, _ := strconv.ParseBool(text)
		if e.pg() {
			return strconv.FormatBool(b)
		}
		if b {
			return "1"
		}
		return "0"
	case models.IntegerField, models.BigIntegerField, models.SmallIntegerField, models.PositiveIntegerField,
		models.PositiveBigIntegerField, models.PositiveSmallIntegerField, models.AutoField, models.BigAutoField,
		models.SmallAutoField, models.ForeignKey, models.OneToOneField:
		return text
	case models.FloatField:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return text
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	case models.DecimalField:
		if r, ok := new(big.Rat).SetString(text); ok {
			text = r.FloatString(f.DecimalPlaces)
		}
	case models.UUIDField:
		if e.pg() {
			return quoteString(text) + "::uuid"
		}
		return quoteString(strings.ReplaceAll(text, "-", ""))
	case models.DateField:
		if e.pg() {
			return quoteString(text) + "::date"
		}
	}
	return quoteString(text)
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// createModel is Django's create_model: the table, with its unique sets,
// foreign keys (PostgreSQL) and indexes deferred.
func (e *editor) createModel(m *ModelState) {
	for _, set := range m.UniqueTogether {
		e.deferred = append(e.deferred, e.uniqueSet(m.Table, m.columns(set)))
	}
	var defs []string
	for i := range m.Fields {
		f := &m.Fields[i]
		if f.manyToMany() {
			continue
		}
		def := e.columnSQL(f, false)
		if f.Related != nil {
			if e.pg() {
				e.deferred = append(e.deferred, e.foreignKey(m.Table, f))
			} else {
				def += " REFERENCES " + quoteName(f.Related.Table) + " (" + quoteName(f.Related.Column) + ") DEFERRABLE INITIALLY DEFERRED"
			}
		}
		defs = append(defs, quoteName(f.Column)+" "+def)
	}
	// Meta.constraints follow the columns; a partial unique index is
	// deferred.
	for _, c := range m.Constraints {
		if len(c.Condition) > 0 {
			e.deferred = append(e.deferred, e.partialUnique(m, c))
		} else {
			defs = append(defs, e.constraintSQL(m, c))
		}
	}
	e.exec("CREATE TABLE " + quoteName(m.Table) + " (" + strings.Join(defs, ", ") + ")")
	e.deferred = append(e.deferred, e.modelIndexes(m)...)
	// Django's create_model then creates the automatic through tables.
	for i := range m.Fields {
		if f := &m.Fields[i]; f.manyToMany() && f.Through == "" {
			e.createModel(m.through(f))
		}
	}
}

// uniqueSet is Django's _create_unique_sql of several columns.
func (e *editor) uniqueSet(table string, cols []string) *deferred {
	return &deferred{table: table, columns: cols, render: func(table string) string {
		name := quoteName(indexName(e.maxName(), table, cols, "_uniq"))
		if e.pg() {
			return "ALTER TABLE " + quoteName(table) + " ADD CONSTRAINT " + name + " UNIQUE (" + quoteColumns(cols) + ")"
		}
		return "CREATE UNIQUE INDEX " + name + " ON " + quoteName(table) + " (" + quoteColumns(cols) + ")"
	}}
}

// fkName is the name of a foreign key constraint on PostgreSQL.
func (e *editor) fkName(table string, f *Field) string {
	return indexName(e.maxName(), table, []string{f.Column}, "_fk_"+f.Related.Table+"_"+f.Related.Column)
}

// foreignKey is Django's _create_fk_sql (PostgreSQL).
func (e *editor) foreignKey(table string, f *Field) *deferred {
	return &deferred{table: table, columns: []string{f.Column}, render: func(table string) string {
		return "ALTER TABLE " + quoteName(table) + " ADD CONSTRAINT " + quoteName(e.fkName(table, f)) +
			" FOREIGN KEY (" + quoteName(f.Column) + ") REFERENCES " + quoteName(f.Related.Table) +
			" (" + quoteName(f.Related.Column) + ") DEFERRABLE INITIALLY DEFERRED"
	}}
}

func quoteColumns(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteName(c)
	}
	return strings.Join(q, ", ")
}

// modelIndexes is Django's _model_indexes_sql: each field's indexes,
// then Meta.indexes.
func (e *editor) modelIndexes(m *ModelState) []*deferred {
	var out []*deferred
	for i := range m.Fields {
		if !m.Fields[i].manyToMany() {
			out = append(out, e.fieldIndexes(m.Table, &m.Fields[i])...)
		}
	}
	for _, ix := range m.Indexes {
		out = append(out, e.index(m, ix))
	}
	return out
}

// fieldIndexes is Django's _field_indexes_sql: the index of a db_index
// field that is not unique, and PostgreSQL's _like index of an indexed or
// unique varchar or text column.
func (e *editor) fieldIndexes(table string, f *Field) []*deferred {
	var out []*deferred
	cols := []string{f.Column}
	if f.DBIndex && !unique(f) {
		out = append(out, &deferred{table: table, columns: cols, render: func(table string) string {
			return "CREATE INDEX " + quoteName(indexName(e.maxName(), table, cols, "")) + " ON " + quoteName(table) + " (" + quoteName(f.Column) + ")"
		}})
	}
	if like := e.likeIndex(table, f); like != nil {
		out = append(out, like)
	}
	return out
}

// likeIndex is PostgreSQL's _create_like_index_sql, nil when none.
func (e *editor) likeIndex(table string, f *Field) *deferred {
	if !e.pg() || !(f.DBIndex || unique(f)) {
		return nil
	}
	opclass := ""
	switch t := e.dbType(f); {
	case strings.HasPrefix(t, "varchar"):
		opclass = "varchar_pattern_ops"
	case strings.HasPrefix(t, "text"):
		opclass = "text_pattern_ops"
	default:
		return nil
	}
	cols := []string{f.Column}
	return &deferred{table: table, columns: cols, render: func(table string) string {
		return "CREATE INDEX " + quoteName(indexName(e.maxName(), table, cols, "_like")) + " ON " + quoteName(table) +
			" (" + quoteName(f.Column) + " " + opclass + ")"
	}}
}

// index is the CREATE INDEX of one of Meta.indexes.
func (e *editor) index(m *ModelState, ix Index) *deferred {
	cols := m.columns(ix.Fields)
	plain := make([]string, len(cols))
	for i, c := range cols {
		plain[i] = strings.TrimPrefix(c, "-")
	}
	return &deferred{table: m.Table, columns: plain, render: func(table string) string {
		q := make([]string, len(cols))
		for i, c := range cols {
			q[i] = quoteName(strings.TrimPrefix(c, "-"))
			if strings.HasPrefix(c, "-") {
				q[i] += " DESC"
			}
		}
		return "CREATE INDEX " + quoteName(ix.Name) + " ON " + quoteName(table) + " (" + strings.Join(q, ", ") + ")"
	}}
}

// deleteModel is Django's delete_model: the table, and the deferred
// statements about it.
func (e *editor) deleteModel(table string) {
	if e.pg() {
		e.exec("DROP TABLE " + quoteName(table) + " CASCADE")
	} else {
		e.exec("DROP TABLE " + quoteName(table))
	}
	e.deferred = slices.DeleteFunc(e.deferred, func(d *deferred) bool { return d.table == table })
}

// addField is Django's add_field on PostgreSQL; SQLite remakes the
// table. A ManyToManyField creates its automatic through table.
func (e *editor) addField(m *ModelState, f *Field) {
	if f.manyToMany() {
		if f.Through == "" {
			e.createModel(m.through(f))
		}
		return
	}
	if !e.pg() {
		e.remake(m, f, "", nil)
		return
	}
	def := e.columnSQL(f, true)
	var parts []string
	if f.Related != nil {
		name := quoteName(e.fkName(m.Table, f))
		def += " CONSTRAINT " + name + " REFERENCES " + quoteName(f.Related.Table) + "(" + quoteName(f.Related.Column) + ") DEFERRABLE INITIALLY DEFERRED"
		parts = append(parts, "SET CONSTRAINTS "+name+" IMMEDIATE")
	}
	e.exec(append([]string{"ALTER TABLE " + quoteName(m.Table) + " ADD COLUMN " + quoteName(f.Column) + " " + def}, parts...)...)
	if _, ok := e.effectiveDefault(f); ok {
		e.exec("ALTER TABLE " + quoteName(m.Table) + " ALTER COLUMN " + quoteName(f.Column) + " DROP DEFAULT")
	}
	e.deferred = append(e.deferred, e.fieldIndexes(m.Table, f)...)
}

// removeField is Django's remove_field on PostgreSQL; SQLite remakes the
// table. A ManyToManyField drops its automatic through table.
func (e *editor) removeField(m *ModelState, f *Field) {
	if f.manyToMany() {
		if f.Through == "" {
			e.deleteModel(m.through(f).Table)
		}
		return
	}
	if !e.pg() {
		e.remake(m, nil, f.Name, nil)
		return
	}
	if f.Related != nil {
		e.dropFK(m.Table, f)
	}
	e.exec("ALTER TABLE " + quoteName(m.Table) + " DROP COLUMN " + quoteName(f.Column) + " CASCADE")
	e.deferred = slices.DeleteFunc(e.deferred, func(d *deferred) bool {
		return d.table == m.Table && slices.Contains(d.columns, f.Column)
	})
}

func (e *editor) dropFK(table string, f *Field) {
	name := quoteName(e.fkName(table, f))
	e.exec("SET CONSTRAINTS "+name+" IMMEDIATE", "ALTER TABLE "+quoteName(table)+" DROP CONSTRAINT "+name)
}

// dropIndex is Django's _delete_index_sql.
func (e *editor) dropIndex(name string) {
	if e.pg() {
		e.exec("DROP INDEX IF EXISTS " + quoteName(name))
	} else {
		e.exec("DROP INDEX " + quoteName(name))
	}
}

// fieldAltered is Django's _field_should_be_altered: whether anything
// but the name (the column aside), blank and on_delete changed.
func fieldAltered(old, new Field) bool {
	old.Blank, new.Blank = false, false
	old.Name = new.Name
	if old.Related != nil && new.Related != nil {
		o, n := *old.Related, *new.Related
		o.OnDelete, n.OnDelete = "", ""
		old.Related, new.Related = &o, &n
	}
	return !fieldsEqual(old, new)
}

// alterField is Django's alter_field: SQLite remakes the table,
// PostgreSQL alters the column.
func (e *editor) alterField(m *ModelState, old, new *Field) {
	if !fieldAltered(*old, *new) || old.manyToMany() && new.manyToMany() {
		// Django alters a many-to-many field's through table only when
		// its name changes, which a field of the same name keeps.
		return
	}
	if !e.pg() {
		if e.renamesOnly(old, new) {
			e.renameColumn(m.Table, old, new)
		} else {
			e.remake(m, nil, "", &[2]*Field{old, new})
		}
		return
	}
	table := quoteName(m.Table)
	oldType, newType := e.dbType(old), e.dbType(new)
	if (old.DBIndex || unique(old)) && (strings.HasPrefix(oldType, "varchar") && !strings.HasPrefix(newType, "varchar") ||
		strings.HasPrefix(oldType, "text") && !strings.HasPrefix(newType, "text")) {
		e.dropIndex(indexName(e.maxName(), m.Table, []string{old.Column}, "_like"))
	}
	fkDropped := false
	if old.Related != nil {
		e.dropFK(m.Table, old)
		fkDropped = true
	}
	if unique(old) && !unique(new) {
		e.exec("ALTER TABLE " + table + " DROP CONSTRAINT " + quoteName(pgName(m.Table, old.Column, "key")))
	}
	if old.DBIndex && !unique(old) && (!new.DBIndex || unique(new)) {
		// Django drops every b-tree index of the column alone that is not
		// one of Meta.indexes: the _like one too.
		e.dropIndex(indexName(e.maxName(), m.Table, []string{old.Column}, ""))
		if e.likeIndex(m.Table, old) != nil {
			e.dropIndex(indexName(e.maxName(), m.Table, []string{old.Column}, "_like"))
		}
	}
	oldCheck, newCheck := e.check(old), e.check(new)
	if oldCheck != newCheck && oldCheck != "" {
		e.exec("ALTER TABLE " + table + " DROP CONSTRAINT " + quoteName(pgName(m.Table, old.Column, "check")))
	}
	if old.Column != new.Column {
		e.renameColumn(m.Table, old, new)
	}
	col := quoteName(new.Column)
	var actions, nullActions []string
	if oldType != newType {
		a := "ALTER COLUMN " + col + " TYPE " + newType
		if e.dataType(old) != e.dataType(new) {
			a += " USING " + col + "::" + newType
		}
		actions = append(actions, a)
	}
	needsDefault := false
	newDefault, hasNewDefault := e.effectiveDefault(new)
	if old.Null && !new.Null {
		oldDefault, _ := e.effectiveDefault(old)
		if hasNewDefault && oldDefault != newDefault {
			needsDefault = true
			actions = append(actions, "ALTER COLUMN "+col+" SET DEFAULT "+newDefault)
		}
	}
	if old.Null != new.Null {
		if new.Null {
			nullActions = append(nullActions, "ALTER COLUMN "+col+" DROP NOT NULL")
		} else {
			nullActions = append(nullActions, "ALTER COLUMN "+col+" SET NOT NULL")
		}
	}
	fourWay := new.HasDefault && old.Null && !new.Null
	if len(actions) > 0 || len(nullActions) > 0 {
		if !fourWay {
			actions = append(actions, nullActions...)
		}
		if len(actions) > 0 {
			e.exec("ALTER TABLE " + table + " " + strings.Join(actions, ", "))
		}
		if fourWay {
			e.exec("UPDATE " + table + " SET " + col + " = " + newDefault + " WHERE " + col + " IS NULL")
			for _, a := range nullActions {
				e.exec("ALTER TABLE " + table + " " + a)
			}
		}
	}
	if !unique(old) && unique(new) {
		e.exec("ALTER TABLE " + table + " ADD CONSTRAINT " + quoteName(indexName(e.maxName(), m.Table, []string{new.Column}, "_uniq")) + " UNIQUE (" + col + ")")
	}
	if (!old.DBIndex || unique(old)) && new.DBIndex && !unique(new) {
		e.exec("CREATE INDEX " + quoteName(indexName(e.maxName(), m.Table, []string{new.Column}, "")) + " ON " + table + " (" + col + ")")
	}
	if new.Related != nil && (fkDropped || old.Related == nil) {
		e.exec(e.foreignKey(m.Table, new).render(m.Table))
	}
	if oldCheck != newCheck && newCheck != "" {
		e.exec("ALTER TABLE " + table + " ADD CONSTRAINT " + quoteName(indexName(e.maxName(), m.Table, []string{new.Column}, "_check")) + " CHECK (" + newCheck + ")")
	}
	if needsDefault {
		e.exec("ALTER TABLE " + table + " ALTER COLUMN " + col + " DROP DEFAULT")
	}
	if !(old.DBIndex || unique(old)) && new.DBIndex || !unique(old) && unique(new) {
		if like := e.likeIndex(m.Table, new); like != nil {
			e.exec(like.render(m.Table))
		}
	}
	if unique(old) && !(new.DBIndex || unique(new)) {
		e.dropIndex(indexName(e.maxName(), m.Table, []string{old.Column}, "_like"))
	}
}

// remake is SQLite's _remake_table as Django 3.2 does it: a "new__" table
// with the new columns (an altered or added one last), the rows copied,
// the old table dropped and the new one renamed, and the indexes
// created again.
func (e *editor) remake(m *ModelState, create *Field, deleteName string, alter *[2]*Field) {
	type copyCol struct{ column, expr string }
	// The table's columns: Django's local_concrete_fields, without the
	// many-to-many fields, whose through tables stay as they are.
	body := slices.DeleteFunc(slices.Clone(m.Fields), func(f Field) bool { return f.manyToMany() })
	var mapping []copyCol
	for _, f := range body {
		mapping = append(mapping, copyCol{f.Column, quoteName(f.Column)})
	}
	uniqueTogether := cloneSets(m.UniqueTogether)
	indexes := slices.Clone(m.Indexes)
	if create != nil {
		body = e.place(body, *create)
		v, ok := e.effectiveDefault(create)
		if !ok {
			v = "NULL"
		}
		mapping = append(mapping, copyCol{create.Column, v})
	}
	if alter != nil {
		old, new := alter[0], alter[1]
		body = slices.DeleteFunc(body, func(f Field) bool { return f.Name == old.Name })
		mapping = slices.DeleteFunc(mapping, func(c copyCol) bool { return c.column == old.Column })
		body = e.place(body, *new)
		expr := quoteName(old.Column)
		if old.Null && !new.Null {
			v, ok := e.effectiveDefault(new)
			if !ok {
				v = "NULL"
			}
			expr = "coalesce(" + expr + ", " + v + ")"
		}
		mapping = append(mapping, copyCol{new.Column, expr})
		for _, set := range uniqueTogether {
			for i, n := range set {
				if n == old.Name {
					set[i] = new.Name
				}
			}
		}
	}
	if deleteName != "" {
		i := slices.IndexFunc(body, func(f Field) bool { return f.Name == deleteName })
		col := body[i].Column
		body = slices.Delete(body, i, i+1)
		mapping = slices.DeleteFunc(mapping, func(c copyCol) bool { return c.column == col })
		indexes = slices.DeleteFunc(indexes, func(ix Index) bool { return slices.Contains(ix.Fields, deleteName) })
	}
	newTable := "new__" + m.Table
	e.createModel(&ModelState{Name: m.Name, Table: newTable, Fields: body, UniqueTogether: uniqueTogether, Indexes: indexes, Constraints: m.Constraints})
	cols := make([]string, len(mapping))
	exprs := make([]string, len(mapping))
	for i, c := range mapping {
		cols[i], exprs[i] = quoteName(c.column), c.expr
	}
	e.exec("INSERT INTO " + quoteName(newTable) + " (" + strings.Join(cols, ", ") + ") SELECT " + strings.Join(exprs, ", ") + " FROM " + quoteName(m.Table))
	e.deleteModel(m.Table)
	e.exec("ALTER TABLE " + quoteName(newTable) + " RENAME TO " + quoteName(m.Table))
	for _, d := range e.deferred {
		if d.table == newTable {
			d.table = m.Table
		}
	}
	e.flush()
}

// pgName is the name PostgreSQL gives a constraint of a column that its
// CREATE TABLE or ADD COLUMN declares (makeObjectName): table, column and
// label joined by "_", the longer of table and column shortened until
// the name fits in 63 bytes.
func pgName(table, column, label string) string {
	t, c := len(table), len(column)
	for t+c > 63-len(label)-2 {
		if t > c {
			t--
		} else {
			c--
		}
	}
	return table[:t] + "_" + column[:c] + "_" + label
}

// place adds the field a remake adds or alters to the new table's
// fields: last, or first after the automatic id when the state was not
// rendered yet (editor.unrendered).
func (e *editor) place(body []Field, f Field) []Field {
	if !e.unrendered {
		return append(body, f)
	}
	i := 0
	for i < len(body) && autoCreated(&body[i]) {
		i++
	}
	return slices.Insert(body, i, f)
}

// autoCreated is Django's auto_created primary key, the id it adds to a
// model without one, which comes before the other fields.
func autoCreated(f *Field) bool { return f.PrimaryKey && f.Name == "id" && auto(f) }

// alterUniqueTogether is Django's alter_unique_together.
func (e *editor) alterUniqueTogether(m *ModelState, old, new [][]string) {
	for _, set := range old {
		if !containsSet(new, set) {
			name := quoteName(indexName(e.maxName(), m.Table, m.columns(set), "_uniq"))
			if e.pg() {
				e.exec("ALTER TABLE " + quoteName(m.Table) + " DROP CONSTRAINT " + name)
			} else {
				e.exec("DROP INDEX " + name)
			}
		}
	}
	for _, set := range new {
		if !containsSet(old, set) {
			e.exec(e.uniqueSet(m.Table, m.columns(set)).render(m.Table))
		}
	}
}

func containsSet(sets [][]string, set []string) bool {
	return slices.ContainsFunc(sets, func(s []string) bool { return slices.Equal(s, set) })
}

func fieldsEqual(a, b Field) bool {
	if (a.Related == nil) != (b.Related == nil) || a.Related != nil && !sameRelation(*a.Related, *b.Related) {
		return false
	}
	return a.Name == b.Name && a.Column == b.Column && a.Kind == b.Kind && a.Through == b.Through && a.PrimaryKey == b.PrimaryKey &&
		a.Null == b.Null && a.Blank == b.Blank && a.Unique == b.Unique && a.DBIndex == b.DBIndex &&
		a.MaxLength == b.MaxLength && a.MaxDigits == b.MaxDigits && a.DecimalPlaces == b.DecimalPlaces &&
		a.HasDefault == b.HasDefault && a.Default == b.Default && slices.Equal(a.Choices, b.Choices) &&
		a.UploadTo == b.UploadTo && a.WidthField == b.WidthField && a.HeightField == b.HeightField
}

// sameRelation reports relations equal, a Kind of "" being an AutoField:
// a migration written before the target's app was known (Django's
// auth_user) and one written after point to the same integer key.
func sameRelation(a, b Relation) bool {
	if a.Kind == "" {
		a.Kind = models.AutoField
	}
	if b.Kind == "" {
		b.Kind = models.AutoField
	}
	return a == b
}
