#pragma once
// Reading the Prometheus text format back (the tests' side of /metrics), and promtool from Debian.
#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace lw::test {

// "name{a=\"x\",b=\"y\"}" → value, with the labels in the order written. Comments are skipped.
inline QMap<QString, double> parseExposition(const QByteArray& text)
{
    QMap<QString, double> out;
    for (const QByteArray& line : text.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype sp = line.lastIndexOf(' ');
        out.insert(QString::fromUtf8(line.left(sp)), line.mid(sp + 1).toDouble());
    }
    return out;
}

// The sample of `name` whose labels include every one of `labels` ("pool=\"x\""), or NaN.
inline double sampleValue(const QMap<QString, double>& m, const QString& name, const QStringList& labels = {})
{
    for (auto it = m.cbegin(); it != m.cend(); ++it) {
        const QString& k = it.key();
        if (!(k == name || k.startsWith(name + QLatin1Char('{'))))
            continue;
        bool all = true;
        for (const QString& l : labels)
            all = all && (k.contains(QLatin1Char('{') + l + QLatin1Char(',')) || k.contains(QLatin1Char(',') + l + QLatin1Char(',')) ||
                          k.contains(QLatin1Char(',') + l + QLatin1Char('}')) || k.contains(QLatin1Char('{') + l + QLatin1Char('}')));
        if (all)
            return it.value();
    }
    return qQNaN();
}

// Every label name used in the exposition.
inline QStringList labelNames(const QByteArray& text)
{
    QStringList names;
    static const QRegularExpression re(QStringLiteral("[{,]([a-z_]+)=\""));
    for (const QByteArray& line : text.split('\n')) {
        if (line.startsWith('#'))
            continue;
        auto it = re.globalMatch(QString::fromUtf8(line.left(line.lastIndexOf('}') + 1)));
        while (it.hasNext()) {
            const QString n = it.next().captured(1);
            if (!names.contains(n))
                names << n;
        }
    }
    return names;
}

// `promtool check metrics` (lint of the exposition format and Prometheus' naming rules) on `text`:
// empty when it passes, else what promtool said.
inline QString promtoolProblems(const QByteArray& text)
{
    QProcess p;
    p.start(QStringLiteral(LW_PROMTOOL), {QStringLiteral("check"), QStringLiteral("metrics")});
    if (!p.waitForStarted(10000))
        return QStringLiteral("promtool did not start");
    p.write(text);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000))
        return QStringLiteral("promtool did not finish");
    const QString said = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitCode() == 0 && said.trimmed().isEmpty() ? QString() : QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(said);
}

} // namespace lw::test
