package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A rule replaces every match of re by [REDACTED:kind]: the whole match,
// or, when re has a group named "s", that group alone (the rest of the
// match, a variable name or the word "Bearer", is kept).
type rule struct {
	kind string
	re   *regexp.Regexp
	// hints are substrings (lower case) of which every match contains
	// one; a text with none skips the rule. No hints: always run.
	hints []string
	// multiline rules run over the whole text; the others line by line.
	multiline bool
	// find, when set, stands for re: it returns the spans to replace.
	find func(s string) [][2]int
	// word means a match starts at a word boundary (a leading \b, taken
	// out of re so that the regexp package can look for the literal
	// prefix of re, much faster).
	word bool
}

func r(kind string, hints []string, expr string) rule {
	word := false
	for _, p := range []string{`\b`, `(?P<s>\b`} {
		if rest, ok := strings.CutPrefix(expr, p); ok {
			expr, word = strings.TrimSuffix(p, `\b`)+rest, true
		}
	}
	return rule{kind: kind, hints: hints, word: word, re: regexp.MustCompile(expr)}
}

// isWord reports whether c is a character of \w.
func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// awsIDs are the prefixes of AWS access key IDs.
const awsIDs = `(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA|A3T[A-Z0-9])`

var awsHints = []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aipa", "anpa", "anva", "apka", "aroa", "asca", "a3t"}

// end is what may follow a token: not another character of it.
const end = `(?:[^A-Za-z0-9_-]|$)`

// rules returns the rules, compiled on first use rather than at package
// initialisation, which every conform process would pay. They are applied
// in order; an earlier rule's placeholder is not matched by a later rule (none matches "[" or "]").
var rules = sync.OnceValue(func() []rule {
	return []rule{
		// PEM private key blocks, and a block cut off before its end line.
		{kind: "private-key", hints: []string{"private key"}, multiline: true, re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)`)},
		// An AWS secret access key (40 characters of base64) printed on the
		// line of its access key ID, up to 100 bytes after or before it; the
		// ID itself goes by the aws-access-key rule below.
		{kind: "aws-secret-key", hints: awsHints, find: awsSecrets},
		// GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained.
		r("github-token", []string{"gh"}, `\bgh[pousr]_[A-Za-z0-9]{20,}`),
		r("github-token", []string{"github_pat_"}, `\bgithub_pat_[A-Za-z0-9_]{20,}`),
		// GitLab tokens: personal, pipeline trigger, deploy, runner, SCIM,
		// feed, incoming mail, agent, OAuth application, CI job, feature flag.
		r("gitlab-token", []string{"gl"}, `\bgl(?:pat|ptt|dt|rt|soat|ft|imt|agent|oas|cbt|ffct)-[A-Za-z0-9_-]{20,}(?:\.[a-z0-9]{9})?`),
		// Stripe secret and restricted keys.
		r("stripe-key", []string{"k_live_", "k_test_", "k_prod_"}, `\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,}`),
		// Anthropic, OpenAI and similar API keys (sk-…, sk-proj-…, sk-ant-…).
		r("api-key", []string{"sk-"}, `\bsk-[A-Za-z0-9_-]{16,}`),
		// Google API keys.
		r("google-api-key", []string{"aiza"}, `(?P<s>\bAIza[A-Za-z0-9_-]{35})`+end),
		// npm, PyPI, Hugging Face, Databricks, DigitalOcean, Shopify,
		// SendGrid, Twilio, Doppler, HashiCorp Vault, age, Slack app tokens.
		r("npm-token", []string{"npm_"}, `(?P<s>\bnpm_[A-Za-z0-9]{36})`+end),
		r("pypi-token", []string{"pypi-"}, `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`),
		r("huggingface-token", []string{"hf_", "api_org_"}, `(?P<s>\b(?:hf|api_org)_[A-Za-z]{34})`+end),
		r("databricks-token", []string{"dapi"}, `(?P<s>\bdapi[a-f0-9]{32}(?:-\d)?)`+end),
		r("digitalocean-token", []string{"_v1_"}, `(?P<s>\bdo[opr]_v1_[a-f0-9]{64})`+end),
		r("shopify-token", []string{"shp"}, `(?P<s>\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})`+end),
		r("sendgrid-key", []string{"sg."}, `(?P<s>\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})`+end),
		r("twilio-key", []string{"sk"}, `\bSK[0-9a-fA-F]{32}\b`),
		r("doppler-token", []string{"dp.pt."}, `\bdp\.pt\.[A-Za-z0-9]{43}`),
		r("vault-token", []string{"hvs.", "hvb."}, `\bhv[sb]\.[A-Za-z0-9_-]{90,}`),
		r("age-secret-key", []string{"age-secret-key-1"}, `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`),
		// Azure AD client secrets: three characters, a digit, "Q~", then 31
		// to 34 more.
		r("azure-client-secret", []string{"q~"}, `(?:^|[^A-Za-z0-9_~.-])(?P<s>[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?:[^A-Za-z0-9_~.-]|$)`),
		// Slack tokens and incoming webhooks.
		r("slack-token", []string{"xox", "xapp-"}, `\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`),
		r("slack-webhook", []string{"hooks.slack.com"}, `hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,}`),
		// JSON Web Tokens: a header and a payload that are base64 JSON
		// objects, and a signature.
		r("jwt", []string{"eyj"}, `\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
		// AWS access key IDs.
		{kind: "aws-access-key", hints: awsHints, re: awsID()},
		// HTTP bearer and basic credentials.
		r("bearer-token", []string{"bearer"}, `(?i)\bbearer\s+(?P<s>[A-Za-z0-9._~+/=-]{8,})`),
		r("basic-auth", []string{"basic"}, `(?i)\bauthorization\s*:\s*basic\s+(?P<s>[A-Za-z0-9+/=]{8,})`),
		// Password in URL userinfo: scheme://user:password@host.
		{kind: "password", hints: []string{"://"}, find: urlPasswords},
		// Assignments of secret-looking names: AWS_SECRET_ACCESS_KEY=…,
		// aws_secret_access_key = …, "password": "…", api_key: ….
		{kind: "secret", hints: secretKeywords, find: assignments},
	}
})

var awsID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b` + awsIDs + `[A-Z0-9]{16}\b`) })

// awsNear is how far from its access key ID a secret access key is looked
// for.
const awsNear = 100

// awsSecrets returns the spans of the AWS secret access keys of the line
// s: the words of exactly 40 base64 characters (A-Z, a-z, 0-9, '/', '+')
// that end at most awsNear bytes before an access key ID or begin at most
// awsNear bytes after one. It scans s once, and the IDs and the words
// together once.
func awsSecrets(s string) [][2]int {
	ids := awsID().FindAllStringIndex(s, -1)
	if ids == nil {
		return nil
	}
	var out [][2]int
	k := 0 // the first ID that does not end before the word
	for i := 0; i < len(s); {
		if !isBase64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64(s[j]) {
			j++
		}
		word := [2]int{i, j}
		i = j
		if j-word[0] != 40 || word[0] > 0 && s[word[0]-1] == '=' || j < len(s) && s[j] == '=' {
			continue
		}
		for k < len(ids) && ids[k][1] <= word[0] && word[0]-ids[k][1] > awsNear {
			k++
		}
		for _, id := range ids[k:] {
			if id[0] >= word[1] {
				if id[0]-word[1] <= awsNear {
					out = append(out, word)
				}
				break
			}
			if id[1] <= word[0] && word[0]-id[1] <= awsNear {
				out = append(out, word)
				break
			}
		}
	}
	return out
}

func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '/' || c == '+'
}

// urlPasswords returns the spans of the passwords in the URLs of s,
// scheme://user:password@host: after a "://" that follows a scheme
// character, a user without space, ':', '/' or '@', then ':', then a
// password without space, '/', '@' or '[', then '@'. Each "://" is
// followed at most to the next space, '/' or '@': s is scanned a bounded
// number of times.
func urlPasswords(s string) [][2]int {
	var out [][2]int
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			return out
		}
		at := i + j
		i = at + 3
		if at == 0 || !isScheme(s[at-1]) {
			continue
		}
		k := i
		for k < len(s) && !isSpace(s[k]) && !strings.ContainsRune(":/@", rune(s[k])) {
			k++
		}
		if k >= len(s) || s[k] != ':' {
			continue
		}
		from := k + 1
		k = from
		for k < len(s) && !isSpace(s[k]) && !strings.ContainsRune("/@[", rune(s[k])) {
			k++
		}
		if k > from && k < len(s) && s[k] == '@' {
			out = append(out, [2]int{from, k})
			i = k
		}
	}
}

func isScheme(c byte) bool { return isWord(c) && c != '_' || c == '+' || c == '.' || c == '-' }

// secretKeywords are the words of a name (any case) whose assignment is
// redacted.
var secretKeywords = []string{"secret", "token", "password", "passwd", "pwd", "apikey", "api_key",
	"accesskey", "access_key", "privatekey", "private_key", "credential"}

// assignments returns the spans of the values assigned to secret-looking
// names in the line s: a name of letters, digits, '_', '.' and '-' holding
// one of secretKeywords, an optional quote, then "=", " = " or ":" (with
// any spaces), an optional quote, and a value of four characters or more
// up to a space, a quote, ',', ';', '&' or a bracket, that is not an
// unquoted JSON number, true, false or null. It takes time linear
// in s: each name is scanned once.
func assignments(s string) [][2]int {
	lower := strings.ToLower(s)
	var at []int // where a keyword starts
	for _, kw := range secretKeywords {
		for i := 0; ; {
			j := strings.Index(lower[i:], kw)
			if j < 0 {
				break
			}
			at = append(at, i+j)
			i += j + len(kw)
		}
	}
	slices.Sort(at)
	var out [][2]int
	next := 0 // the end of the last name scanned
	for _, p := range at {
		if p < next {
			continue
		}
		e := p
		for e < len(s) && isName(s[e]) {
			e++
		}
		next = e
		if sp, ok := assigned(s, e); ok {
			// The value is not scanned again for names: each byte of
			// s is looked at a bounded number of times.
			out, next = append(out, sp), sp[1]
		}
	}
	return out
}

func isName(c byte) bool { return isWord(c) || c == '.' || c == '-' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n'
}

// assigned returns the span of the value assigned after a name that ends
// at i.
func assigned(s string, i int) ([2]int, bool) {
	quote := func() {
		if i < len(s) && (s[i] == '"' || s[i] == '\'') {
			i++
		}
	}
	quote()
	j := i
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	spaced := j > i
	switch {
	case j < len(s) && s[j] == ':':
		j++
		for j < len(s) && isSpace(s[j]) {
			j++
		}
	case j < len(s) && s[j] == '=' && !spaced:
		j++
	case j < len(s) && s[j] == '=':
		j++
		k := j
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == k {
			return [2]int{}, false
		}
	default:
		return [2]int{}, false
	}
	i = j
	quote()
	quoted := i > j
	from := i
	for i < len(s) && !isSpace(s[i]) && !strings.ContainsRune(`"',;&[]{}`, rune(s[i])) {
		i++
	}
	if i-from < 4 || !quoted && jsonLiteral().MatchString(s[from:i]) {
		return [2]int{}, false
	}
	return [2]int{from, i}, true
}

// jsonLiteral matches a value that is a JSON number, true, false or null:
// a count ("outputTokens": 1200) or an unset field, never quoted, so that
// redacting it would also break the JSON text it stands in.
var jsonLiteral = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null)$`)
})

// Kinds returns the kinds of secret the rules recognise, each once, in
// rule order: the <kind> of [REDACTED:<kind>].
func Kinds() []string {
	var ks []string
	for _, r := range rules() {
		if !slices.Contains(ks, r.kind) {
			ks = append(ks, r.kind)
		}
	}
	return ks
}

// shapes replaces every match of every rule in s: the multiline rules
// over the whole of s, the others line by line (a regular expression over
// a short text runs much faster than over a long one).
func shapes(s string) string {
	s = applyRules(s, true)
	if !strings.Contains(s, "\n") {
		return applyRules(s, false)
	}
	var b strings.Builder
	changed := false
	for rest := s; rest != ""; {
		line, tail, found := strings.Cut(rest, "\n")
		out := applyRules(line, false)
		if out != line && !changed {
			changed = true
			b.Grow(len(s))
			b.WriteString(s[:len(s)-len(rest)])
		}
		if changed {
			b.WriteString(out)
			if found {
				b.WriteByte('\n')
			}
		}
		rest = tail
	}
	if !changed {
		return s
	}
	return b.String()
}

// applyRules applies to s the rules that are multiline or not.
func applyRules(s string, multiline bool) string {
	var lower string
	for _, r := range rules() {
		if r.multiline != multiline {
			continue
		}
		if len(r.hints) > 0 {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			if !containsAny(lower, r.hints) {
				continue
			}
		}
		if out, changed := r.apply(s); changed {
			s, lower = out, ""
		}
	}
	return s
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// spans returns the spans of s that r replaces, in order.
func (r rule) spans(s string) [][2]int {
	if r.find != nil {
		return r.find(s)
	}
	ms := r.re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return nil
	}
	g := r.re.SubexpIndex("s")
	out := make([][2]int, 0, len(ms))
	for _, m := range ms {
		if r.word && m[0] > 0 && isWord(s[m[0]-1]) {
			continue
		}
		from, to := m[0], m[1]
		if g > 0 {
			from, to = m[2*g], m[2*g+1]
		}
		if from >= 0 {
			out = append(out, [2]int{from, to})
		}
	}
	return out
}

// apply replaces r's matches in s.
func (r rule) apply(s string) (string, bool) {
	spans := r.spans(s)
	if len(spans) == 0 {
		return s, false
	}
	placeholder := "[REDACTED:" + r.kind + "]"
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, m := range spans {
		from, to := m[0], m[1]
		if from < last {
			continue
		}
		b.WriteString(s[last:from])
		b.WriteString(placeholder)
		last = to
	}
	b.WriteString(s[last:])
	return b.String(), true
}
