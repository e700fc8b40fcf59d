// Package research is the reference host's public-research adapter: a real
// HTTP client behind research.fetch (fetch_url) and research.search
// (search_web), honouring the public-research guarantees of the host
// conformance matrix.
//
// Fetch reads one public http(s) URL: the URL and every redirect target
// must name a public host (no loopback, private, link-local, documentation
// or special-use address, no single-label or reserved name such as
// "localhost" or "*.internal"), and every connection is checked again
// against the address actually dialled, so a public name that resolves to
// a private address is refused too. The body is read up to
// [MaxResponseBytes] within the time limit, must be readable text in UTF-8
// (a declared charset other than UTF-8 or US-ASCII, or bytes that are not
// UTF-8, is UNSUPPORTED), HTML is reduced to its title and visible text,
// and the text is cut to the requested byte limit on a code-point
// boundary.
//
// Search asks a search endpoint of the host's own configuration, with a
// small JSON contract: GET <endpoint>?q=<query>&n=<count> answers
// {"results":[{"title":"…","url":"…","snippet":"…"}]} (snippet optional).
// Without an endpoint there is no search: the host does not back
// research.search. Credentials for the endpoint are request headers of the
// host's configuration ([Config.Headers]); they are sent to the search
// endpoint only, never to fetched sources, never in a query string, and
// every configured header value is redacted from provider text and refused
// in queries and URLs, so that it cannot reach a result, a summary or an
// error.
//
// [ShapeFetch] and [ShapeSearch] turn what was read into the tools'
// model-visible outputs, shrunk until their compact JSON fits both the
// descriptor's byte limit and its token limit (with the core estimator's
// highest calibration factor reserved), so that the core's generic output
// limiter never cuts the JSON; [FetchSource] and [SearchSources] are the
// matching researchSources effects (CONTRACTS §7.5). All external content
// is marked untrusted_external.
package research
