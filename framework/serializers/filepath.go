package serializers

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// msgInvalidPath is DRF's FilePathField invalid_choice.
const msgInvalidPath = "\"%s\" is not a valid path choice."

// filePath is a FilePathField's options: DRF's FilePathField(path=,
// match=, recursive=, allow_files=, allow_folders=), whose choices are
// Django's forms.FilePathField's.
type filePath struct {
	path, match                         string
	recursive, allowFiles, allowFolders bool
	// ofModel marks the FilePathField of a model field, whose choices
	// start with the blank one even when it is required: DRF's
	// ModelSerializer passes no required= for a required model field,
	// and Django's form field takes None as not required.
	ofModel bool
}

// filePathOption applies a drf tag option of a FilePathField; ok is false
// for another option. path=DIR makes the string field a FilePathField.
func (f *field) filePathOption(key, val string, hasVal bool) (ok bool, err error) {
	switch key {
	case "path", "match", "recursive", "allow_files", "allow_folders":
	default:
		return false, nil
	}
	if f.sf.Kind != structs.String || f.container != nil {
		return true, fmt.Errorf("%s needs a string field, a FilePathField", key)
	}
	fp := f.more.filePath
	if fp == nil {
		fp = &filePath{allowFiles: true}
		f.more.filePath = fp
	}
	on := true
	switch key {
	case "path":
		fp.path = val
	case "match":
		fp.match = val
	default:
		if hasVal {
			on, err = strconv.ParseBool(val)
		}
		*map[string]*bool{"recursive": &fp.recursive, "allow_files": &fp.allowFiles, "allow_folders": &fp.allowFolders}[key] = on
	}
	return true, err
}

// bindFilePath reads a FilePathField's choices once, at setup, as DRF's
// FilePathField reads Django's forms.FilePathField's when it is built:
// the files and/or folders under path (of a name match searches),
// valued by their path and labelled by their name, or, recursively, by
// their path under path; with the blank choice "---------" first unless
// the field is required (a model field's only when its drf tag says so,
// as DRF's extra_kwargs required=True: the required it derives is not
// passed on to Django's form field).
func (f *field) bindFilePath() error {
	fp := f.more.filePath
	if fp == nil {
		return nil
	}
	switch {
	case fp.path == "":
		return fmt.Errorf("a FilePathField needs path=")
	case !fp.allowFiles && !fp.allowFolders:
		return fmt.Errorf("FilePathFields must have either 'allow_files' or 'allow_folders' set to True.")
	}
	var re *regexp.Regexp
	if fp.match != "" {
		var err error
		if re, err = regexp.Compile(fp.match); err != nil {
			return fmt.Errorf("match=%s: %w", fp.match, err)
		}
	}
	matches := func(name string) bool { return re == nil || re.MatchString(name) }
	var cs []models.Choice
	if fp.ofModel && !tagRequires(f.sf) || !fp.ofModel && !f.required {
		cs = append(cs, models.Choice{Value: "", Label: "---------"})
	}
	found, err := fp.choices(matches)
	if err != nil {
		return err
	}
	return f.setChoices(append(cs, found...))
}

// choices are the paths under fp.path of a name matches accepts.
func (fp *filePath) choices(matches func(name string) bool) ([]models.Choice, error) {
	if !fp.recursive {
		entries, err := os.ReadDir(fp.path)
		if err != nil {
			return nil, err
		}
		var cs []models.Choice
		for _, e := range entries {
			if e.Name() == "__pycache__" || !matches(e.Name()) {
				continue
			}
			p := joinPath(fp.path, e.Name())
			if st, err := os.Stat(p); err == nil && (fp.allowFiles && st.Mode().IsRegular() || fp.allowFolders && st.IsDir()) {
				cs = append(cs, models.Choice{Value: p, Label: e.Name()})
			}
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Label < cs[j].Label })
		return cs, nil
	}
	if _, err := os.Stat(fp.path); err != nil {
		return nil, err
	}
	// os.walk's directories, each listed as (files, folders), in the
	// order of their paths; a link to a folder is a folder not walked.
	type dir struct {
		root           string
		files, folders []string
	}
	var dirs []dir
	var walk func(root string)
	walk = func(root string) {
		entries, err := os.ReadDir(root)
		if err != nil {
			return
		}
		d := dir{root: root}
		for _, e := range entries {
			p := joinPath(root, e.Name())
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				d.folders = append(d.folders, e.Name())
				if e.Type()&os.ModeSymlink == 0 {
					walk(p)
				}
			} else {
				d.files = append(d.files, e.Name())
			}
		}
		dirs = append(dirs, d)
	}
	walk(fp.path)
	slices.SortFunc(dirs, func(a, b dir) int { return strings.Compare(a.root, b.root) })
	var cs []models.Choice
	add := func(root string, names []string, skip string) {
		slices.Sort(names)
		for _, name := range names {
			if name != skip && matches(name) {
				p := joinPath(root, name)
				cs = append(cs, models.Choice{Value: p, Label: strings.Replace(p, fp.path, "", 1)})
			}
		}
	}
	for _, d := range dirs {
		if fp.allowFiles {
			add(d.root, d.files, "")
		}
		if fp.allowFolders {
			add(d.root, d.folders, "__pycache__")
		}
	}
	return cs, nil
}

// joinPath is Python's os.path.join of a folder and a name, as Django's
// choices spell their paths: "dir/name", "dir/" + "name" kept as it is.
func joinPath(dir, name string) string {
	if dir == "" || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
