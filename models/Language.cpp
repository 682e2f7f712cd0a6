#include "Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QSettings>
#include <QTranslator>

#include <clocale>

namespace lw {

namespace {
constexpr char kSettingKey[] = "language";
}

QStringList availableLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("de")};
}

QString languageCode(const QString& name)
{
    // "de", "de_DE.UTF-8", "de-AT", "en_GB"; C and POSIX are English.
    const QString lang = name.trimmed().toLower().section(QRegularExpression(QStringLiteral("[_.@-]")), 0, 0);
    if (lang == QLatin1String("c") || lang == QLatin1String("posix"))
        return QStringLiteral("en");
    return availableLanguages().contains(lang) ? lang : QString();
}

QString savedLanguage()
{
    return languageCode(QSettings().value(QLatin1String(kSettingKey)).toString());
}

void saveLanguage(const QString& code)
{
    QSettings s;
    if (code.isEmpty())
        s.remove(QLatin1String(kSettingKey));
    else
        s.setValue(QLatin1String(kSettingKey), code);
}

QString chooseLanguage(const QString& cli)
{
    if (const QString c = languageCode(cli); !c.isEmpty())
        return c;
    if (const QString s = savedLanguage(); !s.isEmpty())
        return s;
    // QLocale::system() reads LC_ALL, LC_MESSAGES and LANG in that order.
    for (const QString& ui : QLocale::system().uiLanguages())
        if (const QString c = languageCode(ui); !c.isEmpty())
            return c;
    return QStringLiteral("en");
}

bool installLanguage(const QString& code)
{
    // libpq's and the C library's own messages ("Connection refused", "No such file or directory")
    // stay English whatever the locale (QCoreApplication set it from the environment): the advice
    // beside them is chosen by their words (DbError's adviceFor) and is itself translated.
    std::setlocale(LC_MESSAGES, "C");
    if (code != QLatin1String("de"))
        return true; // the sources' own words; numbers as the system's locale writes them, as before
    const QLocale locale(QLocale::German, QLocale::Germany);
    QLocale::setDefault(locale);
    auto* app = QCoreApplication::instance();
    auto* ours = new QTranslator(app);
    if (!ours->load(QStringLiteral(":/i18n/leasewatch_%1.qm").arg(code))) {
        delete ours;
        return false;
    }
    QCoreApplication::installTranslator(ours);
    auto* qt = new QTranslator(app); // Qt's own: absent when qt6-translations-l10n is not installed
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

} // namespace lw
