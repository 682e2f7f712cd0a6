#include "Secrets.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <vector>

namespace lw {

namespace {

const QString kMask = QStringLiteral("***");

bool isSecretKey(QStringView key)
{
    return key.compare(u"password", Qt::CaseInsensitive) == 0 || key.compare(u"sslpassword", Qt::CaseInsensitive) == 0;
}

// A span [from, to) of the original text holding a secret value.
struct Span
{
    qsizetype from = 0, to = 0;
};

// Settings inside an `options` value (`-c app.password=…`, `--secret=…`) whose name speaks of a
// secret: their values.
void optionSecrets(const QString& options, QStringList& out)
{
    static const QRegularExpression re(
        QStringLiteral("[A-Za-z0-9_.-]*(?:password|passwd|secret|token)[A-Za-z0-9_.-]*\\s*=\\s*('(?:[^'\\\\]|\\\\.)*'|\\S+)"),
        QRegularExpression::CaseInsensitiveOption);
    for (auto it = re.globalMatch(options); it.hasNext();) {
        QString v = it.next().captured(1);
        if (v.size() >= 2 && v.startsWith(QLatin1Char('\'')) && v.endsWith(QLatin1Char('\'')))
            v = v.mid(1, v.size() - 2);
        if (!v.isEmpty())
            out << v;
    }
}

QStringList uriSecrets(const QString& dsn);

// key = value pairs the way libpq reads them: values unquoted (backslash escapes) or in single
// quotes. Lenient: a token without '=' is skipped, so a string libpq rejects is still redacted.
// Returns the spans of secret values in `dsn` (as typed) and appends the secrets' values.
std::vector<Span> conninfoSecrets(const QString& dsn, QStringList& values)
{
    std::vector<Span> spans;
    const qsizetype n = dsn.size();
    qsizetype i = 0;
    auto skipSpace = [&] {
        while (i < n && dsn[i].isSpace())
            ++i;
    };
    while (i < n) {
        skipSpace();
        const qsizetype keyFrom = i;
        while (i < n && !dsn[i].isSpace() && dsn[i] != QLatin1Char('='))
            ++i;
        const QString key = dsn.mid(keyFrom, i - keyFrom);
        skipSpace();
        if (i >= n || dsn[i] != QLatin1Char('='))
            continue; // not a pair
        ++i;
        skipSpace();
        const qsizetype valFrom = i;
        QString value;
        if (i < n && dsn[i] == QLatin1Char('\'')) {
            ++i;
            while (i < n && dsn[i] != QLatin1Char('\'')) {
                if (dsn[i] == QLatin1Char('\\') && i + 1 < n)
                    ++i;
                value += dsn[i++];
            }
            if (i < n)
                ++i; // closing quote
        } else {
            while (i < n && !dsn[i].isSpace()) {
                if (dsn[i] == QLatin1Char('\\') && i + 1 < n)
                    ++i;
                value += dsn[i++];
            }
        }
        const Span valueSpan{valFrom, i};
        if (isSecretKey(key)) {
            spans.push_back(valueSpan);
            if (!value.isEmpty())
                values << value;
        } else if (key.compare(u"options", Qt::CaseInsensitive) == 0 ||
                   key.compare(u"dbname", Qt::CaseInsensitive) == 0) {
            // `options` may carry settings; `dbname` may itself be a whole conninfo or URI
            // (expand_dbname): their secrets are masked inside the value.
            QStringList inner;
            if (key.compare(u"options", Qt::CaseInsensitive) == 0)
                optionSecrets(value, inner);
            else if (value.contains(QLatin1String("://")))
                inner = uriSecrets(value);
            else if (value.contains(QLatin1Char('='))) {
                QStringList v2;
                conninfoSecrets(value, v2);
                inner = v2;
            }
            if (!inner.isEmpty()) {
                spans.push_back(valueSpan); // the whole value: simplest and safe
                values << inner;
            }
        }
    }
    return spans;
}

bool isUri(const QString& dsn)
{
    const QString t = dsn.trimmed();
    return t.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive) ||
           t.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

// postgresql://[user[:password]@][host][/dbname][?key=value&…]
struct UriParts
{
    std::vector<Span> spans;
    QStringList values;
};

UriParts parseUri(const QString& dsn)
{
    UriParts out;
    const qsizetype start = dsn.indexOf(QLatin1String("://")) + 3;
    qsizetype authEnd = start;
    while (authEnd < dsn.size() && dsn[authEnd] != QLatin1Char('/') && dsn[authEnd] != QLatin1Char('?'))
        ++authEnd;
    const qsizetype at = dsn.lastIndexOf(QLatin1Char('@'), authEnd - 1);
    if (at >= start) {
        const qsizetype colon = dsn.indexOf(QLatin1Char(':'), start);
        if (colon >= 0 && colon < at) {
            out.spans.push_back({colon + 1, at});
            const QString raw = dsn.mid(colon + 1, at - colon - 1);
            if (!raw.isEmpty())
                out.values << raw << QUrl::fromPercentEncoding(raw.toUtf8());
        }
    }
    const qsizetype q = dsn.indexOf(QLatin1Char('?'), authEnd);
    if (q >= 0) {
        qsizetype i = q + 1;
        while (i < dsn.size()) {
            qsizetype end = dsn.indexOf(QLatin1Char('&'), i);
            if (end < 0)
                end = dsn.size();
            const qsizetype eq = dsn.indexOf(QLatin1Char('='), i);
            if (eq > i && eq < end) {
                const QString key = QUrl::fromPercentEncoding(dsn.mid(i, eq - i).toUtf8());
                const QString raw = dsn.mid(eq + 1, end - eq - 1);
                const QString value = QUrl::fromPercentEncoding(QString(raw).replace(QLatin1Char('+'), QLatin1Char(' ')).toUtf8());
                QStringList inner;
                if (isSecretKey(key))
                    inner << raw << value;
                else if (key.compare(u"options", Qt::CaseInsensitive) == 0)
                    optionSecrets(value, inner);
                if (!inner.isEmpty()) {
                    out.spans.push_back({eq + 1, end});
                    for (const QString& v : inner)
                        if (!v.isEmpty())
                            out.values << v;
                }
            }
            i = end + 1;
        }
    }
    return out;
}

QStringList uriSecrets(const QString& dsn)
{
    return parseUri(dsn).values;
}

// Anything the parsers above missed (a broken string): `password = value` anywhere.
void looseSecrets(const QString& dsn, QStringList& values, std::vector<Span>& spans)
{
    static const QRegularExpression re(
        QStringLiteral("(?:^|[\\s?&])(?:ssl)?password\\s*=\\s*('(?:[^'\\\\]|\\\\.)*'?|[^\\s&]+)"),
        QRegularExpression::CaseInsensitiveOption);
    for (auto it = re.globalMatch(dsn); it.hasNext();) {
        const auto m = it.next();
        spans.push_back({m.capturedStart(1), m.capturedEnd(1)});
        QString v = m.captured(1);
        if (v.startsWith(QLatin1Char('\'')))
            v = v.mid(1, v.endsWith(QLatin1Char('\'')) ? v.size() - 2 : -1);
        if (!v.isEmpty())
            values << v;
    }
}

std::vector<Span> secretSpans(const QString& dsn, QStringList& values)
{
    std::vector<Span> spans;
    if (isUri(dsn)) {
        UriParts u = parseUri(dsn);
        spans = std::move(u.spans);
        values << u.values;
    } else {
        spans = conninfoSecrets(dsn, values);
    }
    looseSecrets(dsn, values, spans);
    values.removeDuplicates();
    return spans;
}

} // namespace

QString redactDsn(const QString& dsn)
{
    QStringList values;
    std::vector<Span> spans = secretSpans(dsn, values);
    if (spans.empty())
        return dsn;
    // Masked from the end, merged where they overlap (the loose pass may find a span again).
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
    std::vector<Span> merged;
    for (const Span& s : spans) {
        if (!merged.empty() && s.from <= merged.back().to)
            merged.back().to = std::max(merged.back().to, s.to);
        else
            merged.push_back(s);
    }
    QString out = dsn;
    for (auto it = merged.rbegin(); it != merged.rend(); ++it)
        out.replace(it->from, it->to - it->from, kMask);
    return out;
}

QStringList dsnSecrets(const QString& dsn)
{
    QStringList values;
    secretSpans(dsn, values);
    return values;
}

QString scrubSecrets(QString text, const QStringList& secrets)
{
    // Longest first, so that a secret containing another is masked whole. Secrets of one or two
    // characters are left: masking every "a" in a message would make it unreadable, and libpq
    // quotes connection strings in its messages only as whole tokens.
    QStringList sorted = secrets;
    std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& s : sorted)
        if (s.size() >= 3)
            text.replace(s, kMask);
    return text;
}

QString scrubDsnSecrets(const QString& text, const QString& dsn)
{
    return scrubSecrets(text, dsnSecrets(dsn));
}

QString dsnStoreName(const QString& dsn)
{
    const QByteArray h = QCryptographicHash::hash(redactDsn(dsn.trimmed()).toUtf8(), QCryptographicHash::Sha256);
    return QStringLiteral("dsn-") + QString::fromLatin1(h.toHex().left(16));
}

} // namespace lw
