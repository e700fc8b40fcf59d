package redact_test

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/redact"
)

// shapes redacts by shape alone, whatever the test's environment holds.
var shapes = redact.New()

func TestString(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text", "the host exited (exit status 1)", "the host exited (exit status 1)"},
		{"classic github token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rejected", "token [REDACTED:github-token] rejected"},
		{"github app token", "ghs_ABCDEFGHIJKLMNOPQRSTUVWX", "[REDACTED:github-token]"},
		{"fine-grained github token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED:github-token]"},
		{"api key", "OPENAI key sk-proj-abcdefghijklmnop1234 used", "OPENAI key [REDACTED:api-key] used"},
		{"short sk- is no key", "task-sk-1", "task-sk-1"},
		{"aws access key id", "id AKIAIOSFODNN7EXAMPLE.", "id [REDACTED:aws-access-key]."},
		{"slack token", "xoxb-123456789012-abcdefABCDEF", "[REDACTED:slack-token]"},
		{"bearer", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def", "Authorization: Bearer [REDACTED:bearer-token]"},
		{"bearer lower case", "authorization: bearer abcdefgh12345678", "authorization: bearer [REDACTED:bearer-token]"},
		{"private key block", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----\nafter", "key:\n[REDACTED:private-key]\nafter"},
		{"cut private key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz", "[REDACTED:private-key]"},
		{"env assignment", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG HOME=/root", "AWS_SECRET_ACCESS_KEY=[REDACTED:secret] HOME=/root"},
		{"empty assignment keeps the next word", "AWS_SECRET_ACCESS_KEY= HOME=/root", "AWS_SECRET_ACCESS_KEY= HOME=/root"},
		{"yaml field", "api_key:  abcd1234", "api_key:  [REDACTED:secret]"},
		{"json field", `{"password": "hunter22"}`, `{"password": "[REDACTED:secret]"}`},
		{"github token variable", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GITHUB_TOKEN=[REDACTED:github-token]"},
		{"url password", "cloning https://alice:s3cr3t@example.com/repo.git", "cloning https://alice:[REDACTED:password]@example.com/repo.git"},
		{"url without password", "see https://example.com/a:b", "see https://example.com/a:b"},
		{"url password with a colon", "ftp://u:p:q@h", "ftp://u:[REDACTED:password]@h"},
		{"url without user", "https://:s3cr3t@h/x", "https://:[REDACTED:password]@h/x"},
		{"url with user only", "https://user@host/a:b@c", "https://user@host/a:b@c"},
		{"two urls", "git+ssh://git:tok1@a.b and http://me:tok2@c.d", "git+ssh://git:[REDACTED:password]@a.b and http://me:[REDACTED:password]@c.d"},
		{"no scheme", "://u:p@h", "://u:p@h"},
		{"two secrets", "ghp_abcdefghijklmnopqrstuvwxyz AKIAIOSFODNN7EXAMPLE", "[REDACTED:github-token] [REDACTED:aws-access-key]"},

		// AWS key pairs: the secret access key on the line of its ID.
		{"aws pair", "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "[REDACTED:aws-access-key] [REDACTED:aws-secret-key]"},
		{"aws pair with colon", "creds AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.", "creds [REDACTED:aws-access-key]:[REDACTED:aws-secret-key]."},
		{"aws pair with words between", "id=ASIAIOSFODNN7EXAMPLE and the key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "id=[REDACTED:aws-access-key] and the key is [REDACTED:aws-secret-key]"},
		{"aws secret before its id", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (AKIAIOSFODNN7EXAMPLE)", "[REDACTED:aws-secret-key] ([REDACTED:aws-access-key])"},
		{"aws secret on the next line is by assignment", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_access_key_id = [REDACTED:aws-access-key]\naws_secret_access_key = [REDACTED:secret]"},
		{"aws json", `{"AccessKeyId":"ASIAIOSFODNN7EXAMPLE","SecretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`, `{"AccessKeyId":"[REDACTED:aws-access-key]","SecretAccessKey":"[REDACTED:aws-secret-key]"}`},
		{"forty characters without an id", "commit 0123456789abcdef0123456789abcdef01234567", "commit 0123456789abcdef0123456789abcdef01234567"},

		// Shapes of a secret-scanning rule set.
		{"gitlab pat", "glpat-abcdefghij0123456789", "[REDACTED:gitlab-token]"},
		{"gitlab runner", "token glrt-abcdefghij0123456789xyz.", "token [REDACTED:gitlab-token]."},
		{"stripe live key", "sk_live_abcdefghij0123456789", "[REDACTED:stripe-key]"},
		{"stripe restricted key", "rk_live_abcdefghij0123456789", "[REDACTED:stripe-key]"},
		{"google api key", "key=AIzaSyA-abcdefghijklmnopqrstuvwxyz01234 ok", "key=[REDACTED:google-api-key] ok"},
		{"npm token", "npm_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:npm-token]"},
		{"pypi token", "pypi-AgEIcHlwaS5vcmc" + strings.Repeat("Ab1_", 13), "[REDACTED:pypi-token]"},
		{"huggingface token", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "[REDACTED:huggingface-token]"},
		{"slack webhook", "post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "post to https://[REDACTED:slack-webhook]"},
		{"jwt", "session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end", "session [REDACTED:jwt] end"},
		{"sendgrid key", "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "[REDACTED:sendgrid-key]"},
		{"twilio key", "SK0123456789abcdef0123456789abcdef", "[REDACTED:twilio-key]"},
		{"azure client secret", `secret "abc8Q~abcdefghijklmnopqrstuvwxyz01234"`, `secret "[REDACTED:azure-client-secret]"`},
		{"databricks token", "dapi0123456789abcdef0123456789abcdef", "[REDACTED:databricks-token]"},
		{"digitalocean token", "dop_v1_" + strings.Repeat("0a", 32), "[REDACTED:digitalocean-token]"},
		{"shopify token", "shpat_0123456789abcdef0123456789abcdef", "[REDACTED:shopify-token]"},
		{"basic auth", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED:basic-auth]"},
		{"basic as a word", "a basic configuration", "a basic configuration"},
		{"counts are no secrets", `{"outputTokens": 1200, "max_tokens":4096, "password": null, "secret": true}`, `{"outputTokens": 1200, "max_tokens":4096, "password": null, "secret": true}`},
		{"quoted number is", `{"password": "12345678"}`, `{"password": "[REDACTED:secret]"}`},
		{"credentials file", "aws_secret_access_key = abcd1234efgh", "aws_secret_access_key = [REDACTED:secret]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := shapes.String(c.in); got != c.want {
				t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

func TestValues(t *testing.T) {
	r := redact.New(
		redact.Secret{Name: "HOST_SECRET", Value: "plain-words-here"},
		redact.Secret{Name: "DB_PASSWORD", Value: `p"w\d!`},
		redact.Secret{Name: "SHORT_TOKEN", Value: "abc"},
		redact.Secret{Name: "LONGER", Value: "plain-words-here-and-more"},
		redact.Secret{Name: "ODD", Value: "REDACTED"},
	)
	cases := []struct{ name, in, want string }{
		{"value", "the host said plain-words-here twice: plain-words-here", "the host said [REDACTED:$HOST_SECRET] twice: [REDACTED:$HOST_SECRET]"},
		{"longest value first", "plain-words-here-and-more", "[REDACTED:$LONGER]"},
		{"value with quotes", `pw p"w\d! end`, `pw [REDACTED:$DB_PASSWORD] end`},
		{"value as JSON writes it", `{"pw":"p\"w\\d!"}`, `{"pw":"[REDACTED:$DB_PASSWORD]"}`},
		{"short value left alone", "abc abc", "abc abc"},
		{"value a placeholder holds left alone", "REDACTED", "REDACTED"},
		{"values and shapes", "plain-words-here ghp_abcdefghijklmnopqrstuvwxyz", "[REDACTED:$HOST_SECRET] [REDACTED:github-token]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.String(c.in); got != c.want {
				t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
	if got, want := r.Values("plain-words-here ghp_abcdefghijklmnopqrstuvwxyz"), "[REDACTED:$HOST_SECRET] ghp_abcdefghijklmnopqrstuvwxyz"; got != want {
		t.Errorf("Values = %q, want %q", got, want)
	}
	if got, want := strings.Join(r.Names(), ","), "DB_PASSWORD,HOST_SECRET,LONGER"; got != want {
		t.Errorf("Names() = %s, want %s", got, want)
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "NPM_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true,
		"AWS_ACCESS_KEY_ID": true, "DB_PASSWORD": true, "MYSQL_PWD": true, "OPENAI_API_KEY": true,
		"ANTHROPIC_API_KEY": true, "GITHUBTOKEN": true, "client_secret": true, "SENTRY_DSN": true,
		"GPG_PASSPHRASE": true, "VAULT_AUTH": true, "SSH_KEY": true,
		"PATH": false, "HOME": false, "PWD": false, "OLDPWD": false, "SSH_AUTH_SOCK": false,
		"AWS_REGION": false, "AWS_PROFILE": false, "LANG": false, "KEYBOARD": false, "HOST_FLAVOUR": false,
		"GOOGLE_APPLICATION_CREDENTIALS": false, "TERM": false,
	} {
		if got := redact.SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	r := redact.FromEnv([]string{
		"GITHUB_TOKEN=gho_tokenvalue", "HOST_FLAVOUR=flavour-value", "PLAIN=plain-value",
		"AWS_REGION=eu-west-3", "PASSWORD=x", "NOEQUALS",
	}, []string{"HOST_FLAVOUR"})
	in := "gho_tokenvalue flavour-value plain-value eu-west-3 x"
	want := "[REDACTED:$GITHUB_TOKEN] [REDACTED:$HOST_FLAVOUR] plain-value eu-west-3 x"
	if got := r.String(in); got != want {
		t.Errorf("String(%q)\n got %q\nwant %q", in, got, want)
	}
}

func TestDefault(t *testing.T) {
	old := redact.Default()
	defer redact.Use(old)
	redact.Use(redact.New(redact.Secret{Name: "X_TOKEN", Value: "value-of-x"}))
	if got := redact.String("value-of-x"); got != "[REDACTED:$X_TOKEN]" {
		t.Errorf("String after Use = %q", got)
	}
}

// TestIdempotent checks that redacting redacted text changes nothing, for
// every rule's placeholder.
func TestIdempotent(t *testing.T) {
	r := redact.New(redact.Secret{Name: "AWS_SECRET_ACCESS_KEY", Value: "value-123456"})
	for _, k := range redact.Kinds() {
		for _, s := range []string{"[REDACTED:" + k + "]", "token=[REDACTED:" + k + "]", "[REDACTED:$AWS_SECRET_ACCESS_KEY]", "password: [REDACTED:$AWS_SECRET_ACCESS_KEY]"} {
			if got := r.String(s); got != s {
				t.Errorf("String(%q) = %q", s, got)
			}
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("token ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	f.Add("https://u:p@h")
	f.Add("AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	f.Add("secret-value-1 secret-value-10")
	r := redact.New(redact.Secret{Name: "A_TOKEN", Value: "secret-value-1"}, redact.Secret{Name: "B_TOKEN", Value: "secret-value-10"})
	f.Fuzz(func(t *testing.T, s string) {
		out := r.String(s)
		if r.String(out) != out {
			t.Errorf("String is not idempotent on %q: %q", s, out)
		}
		if strings.Contains(out, "secret-value-1") {
			t.Errorf("String(%q) = %q keeps a value", s, out)
		}
	})
}
