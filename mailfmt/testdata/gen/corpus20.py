#!/usr/bin/env python3
"""Writes the issue-20 layouts of the real-client corpus (311-...): each a
client's reply layout (learned from public reply-parser fixtures and the
clients' reply header strings) with our own bodies (game commands). Run from
mailfmt/: python3 testdata/gen/corpus20.py; then go test -run TestCorpus
-update, and read the .want files. It prints, per file, the lines the
commands must hold, for the check below the files."""
import base64, json, os, sys

D = "testdata/corpus"
PROMPT = """##- Please write your reply above this line -##

Dice Brewing - game g42, move 57
It is your turn, {name} (seat 1).

Your options:
  1  PLACE MH1 SEED, MH1+ B3
  2  STORE Y5 G4
  3  PASS

Reply with one command per line, or just the option number.

-- 
Referee of game g42 - reply STATUS for the full board""".split("\n")
NOGUARD = PROMPT[2:]

def q(lines, p="> "):
    return [(p + l) if l else p.rstrip() for l in lines]

layouts = []
def L(slug, lang, mailer, quote, own_pos="top", html=False):
    layouts.append(dict(slug=slug, lang=lang, mailer=mailer, quote=quote, pos=own_pos, html=html))

hb = lambda f, s, t, o, date, sep=": ": [f + sep + '"Referee" <referee@example.test>', s + sep + date, t + sep + "{addr}", o + sep + "Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn"]

# GMX / web.de (de): date-first header block, unquoted.
for c in ("gmx", "webde"):
    L(c + "-de-gesendet-von", "de", "GMX/web.de Mail", ["Gesendet: Dienstag, 12. Mai 2026 um 10:14 Uhr", 'Von: "Referee" <referee@example.test>', "An: {addr}", "Betreff: Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn", ""] + NOGUARD)
    L(c + "-de-quoted-am-schrieb", "de", "GMX/web.de Mail", ["Am 12.05.26 um 10:14 schrieb Referee:"] + q(PROMPT))
    L(c + "-de-app-footer", "de", "WEB.DE Mail App", ["Gesendet: Dienstag, 12. Mai 2026 um 10:14 Uhr", 'Von: "Referee" <referee@example.test>', "An: {addr}", "Betreff: Dice Brewing", ""] + NOGUARD, own_pos="top-footer")
# T-Online (de)
L("t-online-de-original-nachricht", "de", "T-Online Mail", ["-----Original-Nachricht-----", "Betreff: Dice Brewing: your turn", "Datum: 2026-05-12T10:14:00+0200", 'Von: "Referee" <referee@example.test>', "An: {addr}", ""] + NOGUARD)
# Proton, per language
for lang, sep, att in [("en", "Original Message", "On Tuesday, May 12th, 2026 at 10:14, Referee <referee@example.test> wrote:"),
                       ("it", "Messaggio originale", "Il martedì 12 maggio 2026 alle 10:14, Referee <referee@example.test> ha scritto:"),
                       ("fr", "Message d'origine", "Le mardi 12 mai 2026 à 10:14, Referee <referee@example.test> a écrit :"),
                       ("nl", "Oorspronkelijk bericht", "Op dinsdag 12 mei 2026 om 10:14 schreef Referee <referee@example.test>:"),
                       ("de", "Original-Nachricht", "Am Dienstag, 12. Mai 2026 um 10:14 schrieb Referee <referee@example.test>:"),
                       ("es", "Mensaje original", "El martes, 12 de mayo de 2026 a las 10:14, Referee <referee@example.test> escribió:"),
                       ("pt", "Mensagem original", "Em terça-feira, 12 de maio de 2026 às 10:14, Referee <referee@example.test> escreveu:")]:
    L("proton-" + lang + "-top", lang, "Proton Mail", ["------- " + sep + " -------", att, "", ""] + q(PROMPT))
    L("proton-" + lang + "-bottom", lang, "Proton Mail", ["------- " + sep + " -------", att, "", ""] + q(PROMPT), own_pos="bottom")
# Outlook.com web, per language (underscores + header block)
OLF = {"en": ("From", "Sent", "To", "Subject", "Tuesday, May 12, 2026 10:14 AM", ": "),
       "it": ("Da", "Inviato", "A", "Oggetto", "martedì 12 maggio 2026 10:14", ": "),
       "fr": ("De", "Envoyé", "À", "Objet", "mardi 12 mai 2026 10:14", " : "),
       "nl": ("Van", "Verzonden", "Aan", "Onderwerp", "dinsdag 12 mei 2026 10:14", ": "),
       "de": ("Von", "Gesendet", "An", "Betreff", "Dienstag, 12. Mai 2026 10:14", ": "),
       "es": ("De", "Enviado", "Para", "Asunto", "martes, 12 de mayo de 2026 10:14", ": "),
       "pt": ("De", "Enviado", "Para", "Assunto", "terça-feira, 12 de maio de 2026 10:14", ": ")}
for lang, (f, s, t, o, d, sp) in OLF.items():
    L("outlook-com-" + lang + "-underscores", lang, "Outlook.com", ["________________________________"] + hb(f, s, t, o, d, sp) + [""] + PROMPT)
    L("outlook-com-" + lang + "-business", lang, "Outlook.com", ["________________________________"] + hb(f, s, t, o, d, sp) + [""] + NOGUARD, own_pos="top-business")
    L("new-outlook-" + lang + "-html-bold", lang, "Microsoft Outlook 16.0", ["<hr>"] + ["<b>%s:</b> %s<br>" % (x, y) for x, y in [(f, "Referee &lt;referee@example.test&gt;"), (s, d), (t, "{addr}"), (o, "Dice Brewing: your turn")]] + [""] + NOGUARD, html=True)
    L("samsung-" + lang + "-original", lang, "Samsung Email", ["-------- " + {"en": "Original message", "it": "Messaggio originale", "fr": "Message d'origine", "nl": "Oorspronkelijk bericht", "de": "Ursprüngliche Nachricht", "es": "Mensaje original", "pt": "Mensagem original"}[lang] + " --------",
        f + sp + "Referee <referee@example.test>", {"en": "Date", "it": "Data", "fr": "Date", "nl": "Datum", "de": "Datum", "es": "Fecha", "pt": "Data"}[lang] + sp + "12/05/2026 10:14 (GMT+01:00)", t + sp + "{addr}", o + sp + "Dice Brewing", ""] + NOGUARD, own_pos="top-footer")
# Apple Mail iOS: quoted attribution, per language, command below "Sent from".
IOS = {"en": "On 12 May 2026, at 10:14, Referee <referee@example.test> wrote:", "it": "Il giorno 12 mag 2026, alle ore 10:14, Referee <referee@example.test> ha scritto:",
       "fr": "Le 12 mai 2026 à 10:14, Referee <referee@example.test> a écrit :", "nl": "Op 12 mei 2026 om 10:14 heeft Referee <referee@example.test> het volgende geschreven:",
       "de": "Am 12.05.2026 um 10:14 schrieb Referee <referee@example.test>:", "es": "El 12 may 2026, a las 10:14, Referee <referee@example.test> escribió:",
       "pt": "Em 12 de mai. de 2026, à(s) 10:14, Referee <referee@example.test> escreveu:"}
for lang, att in IOS.items():
    L("apple-ios-" + lang + "-below-sent-from", lang, "iPhone Mail (22A3354)", q([att, ""] + PROMPT), own_pos="below-footer")
# Thunderbird per language, and its forward header table.
TB = {"en": "On 12/05/2026 10:14, Referee wrote:", "it": "Il 12/05/26 10:14, Referee ha scritto:", "fr": "Le 12/05/2026 à 10:14, Referee a écrit :",
      "nl": "Op 12-05-2026 om 10:14 schreef Referee:", "de": "Am 12.05.26 um 10:14 schrieb Referee:", "es": "El 12/5/26 a las 10:14, Referee escribió:", "pt": "Em 12/05/2026 10:14, Referee escreveu:"}
for lang, att in TB.items():
    L("thunderbird-" + lang + "-business-bottom", lang, "Mozilla Thunderbird", [att] + q(PROMPT), own_pos="bottom-business")
for lang, (sep, a, b, c, d) in {"en": ("Forwarded Message", "Subject", "Date", "From", "To"), "de": ("Weitergeleitete Nachricht", "Betreff", "Datum", "Von", "An"),
                                "fr": ("Message transféré", "Sujet", "Date", "De", "Pour"), "it": ("Messaggio inoltrato", "Oggetto", "Data", "Mittente", "A")}.items():
    L("thunderbird-" + lang + "-forward-table", lang, "Mozilla Thunderbird", ["-------- " + sep + " --------", a + ": \tDice Brewing", b + ": \tTue, 12 May 2026 10:14:00 +0200", c + ": \tReferee <referee@example.test>", d + ": \t{addr}", ""] + PROMPT)
# K-9 / FairEmail
L("k9-de-schrieb-am", "de", "K-9 Mail for Android", ["Referee <referee@example.test> schrieb am 12. Mai 2026 10:14:00 MESZ:"] + q(PROMPT), own_pos="top-k9")
L("k9-en-on-wrote", "en", "K-9 Mail for Android", ["On May 12, 2026 10:14:00 AM GMT+02:00, Referee <referee@example.test> wrote:"] + q(PROMPT), own_pos="top-k9")
L("k9-it-ha-scritto", "it", "K-9 Mail for Android", ["Il 12 maggio 2026 10:14:00 CEST, Referee <referee@example.test> ha scritto:"] + q(PROMPT), own_pos="bottom")
L("fairemail-en-dated", "en", "FairEmail", ["12 May 2026 10:14:00 Referee <referee@example.test>:"] + q(PROMPT))
L("fairemail-nl-dated", "nl", "FairEmail", ["12 mei 2026 10:14:00 Referee <referee@example.test>:"] + q(PROMPT), own_pos="bottom")
L("fairemail-de-dated", "de", "FairEmail", ["12. Mai 2026 10:14:00 Referee <referee@example.test>:"] + q(PROMPT), own_pos="top-footer")
# Libero (it)
L("libero-it-messaggio-originale", "it", "Libero Mail", ["----Messaggio originale----", "Da: referee@example.test", "Data: 12/05/2026 10.14", "A: <{addr}>", "Ogg: Dice Brewing", ""] + NOGUARD)
L("libero-it-app-footer", "it", "Libero Mail", ["----Messaggio originale----", "Da: referee@example.test", "Data: 12/05/2026 10.14", "A: <{addr}>", "Ogg: Dice Brewing", ""] + NOGUARD, own_pos="top-footer")
L("libero-it-business", "it", "Libero Mail", ["----Messaggio originale----", "Da: referee@example.test", "Data: 12/05/2026 10.14", "A: <{addr}>", "Ogg: Dice Brewing", ""] + NOGUARD, own_pos="top-business")
# Orange, SFR, Free (fr)
L("orange-fr-message-du-quoted", "fr", "Orange Messagerie", q(["Message du 12/05/26 10:14", 'De : "Referee" <referee@example.test>', "A : {addr}", "Copie à : ", "Objet : Dice Brewing", ""] + NOGUARD))
L("orange-fr-message-du-bottom", "fr", "Orange Messagerie", q(["Message du 12/05/26 10:14", 'De : "Referee" <referee@example.test>', "A : {addr}", "Copie à : ", "Objet : Dice Brewing", ""] + NOGUARD), own_pos="bottom")
L("orange-fr-app-footer", "fr", "Orange Messagerie", q(["Message du 12/05/26 10:14", 'De : "Referee" <referee@example.test>', "A : {addr}", "Objet : Dice Brewing", ""] + NOGUARD), own_pos="top-footer")
L("sfr-fr-business", "fr", "SFR Mail", q(["Message du 12/05/26 10:14", 'De : "Referee" <referee@example.test>', "A : {addr}", "Objet : Dice Brewing", ""] + NOGUARD), own_pos="top-business")
L("free-zimbra-fr-mail-original", "fr", "Zimbra", ["----- Mail original -----", 'De: "Referee" <referee@example.test>', "À: {addr}", "Envoyé: Mardi 12 Mai 2026 10:14:00", "Objet: Dice Brewing", ""] + NOGUARD)
L("free-zimbra-fr-greeting", "fr", "Zimbra", ["----- Mail original -----", 'De: "Referee" <referee@example.test>', "À: {addr}", "Envoyé: Mardi 12 Mai 2026 10:14:00", "Objet: Dice Brewing", ""] + NOGUARD, own_pos="top-greeting")
# KPN / Ziggo (nl), Open-Xchange
L("kpn-nl-op-schreef", "nl", "KPN Mail", ["Op 12-05-2026 10:14 schreef Referee <referee@example.test>:", ""] + q(PROMPT))
L("kpn-nl-business", "nl", "KPN Mail", ["Op 12-05-2026 10:14 schreef Referee <referee@example.test>:", ""] + q(PROMPT), own_pos="top-business")
L("ziggo-ox-nl-quoted-attribution", "nl", "Open-Xchange Mailer", q(["Op 12 mei 2026 om 10:14 schreef Referee <referee@example.test>:", ""] + PROMPT))
L("ziggo-ox-nl-oorspronkelijk", "nl", "Open-Xchange Mailer", ["----- Oorspronkelijk bericht -----", "Van: Referee <referee@example.test>", "Aan: {addr}", "Datum: 12 mei 2026 om 10:14", "Onderwerp: Dice Brewing", ""] + NOGUARD)
L("ziggo-ox-nl-bottom", "nl", "Open-Xchange Mailer", q(["Op 12 mei 2026 om 10:14 schreef Referee <referee@example.test>:", ""] + PROMPT), own_pos="bottom")
# Yahoo per language (unquoted prompt)
for lang, att in {"it": "Il martedì 12 maggio 2026, 10:14:00 CEST, Referee <referee@example.test> ha scritto:", "fr": "Le mardi 12 mai 2026 à 10:14:00 UTC+2, Referee <referee@example.test> a écrit :",
                  "de": "Am Dienstag, 12. Mai 2026, 10:14:00 MESZ hat Referee <referee@example.test> Folgendes geschrieben:", "es": "El martes, 12 de mayo de 2026, 10:14:00 CEST, Referee <referee@example.test> escribió:",
                  "nl": "Op dinsdag 12 mei 2026 10:14:00 CEST schreef Referee <referee@example.test>:"}.items():
    L("yahoo-" + lang + "-unquoted", lang, "YahooMailAndroidMobile", ["", att, "", ""] + NOGUARD, own_pos="top-footer")
# eM Client, Roundcube, Horde
L("emclient-en-original", "en", "eM_Client/9.2", ["------ Original Message ------", 'From "Referee" <referee@example.test>', "To {addr}", "Date 12/05/2026 10:14:00", "Subject Dice Brewing", ""] + q(PROMPT))
for lang, att in {"de": "Am 2026-05-12 10:14, schrieb Referee:", "en": "On 2026-05-12 10:14, Referee wrote:", "fr": "Le 2026-05-12 10:14, Referee a écrit :",
                  "it": "Il 2026-05-12 10:14 Referee ha scritto:", "nl": "Op 2026-05-12 10:14 schreef Referee:", "es": "El 2026-05-12 10:14, Referee escribió:"}.items():
    L("roundcube-" + lang, lang, "Roundcube Webmail", [att] + q(PROMPT), own_pos=("bottom" if lang in ("de", "nl") else "top-greeting"))
L("horde-de-zitat-von", "de", "Horde Application Framework 5", ["Zitat von Referee <referee@example.test>:", ""] + q(PROMPT))
L("horde-en-quoting", "en", "Horde Application Framework 5", ["Quoting Referee <referee@example.test>:", ""] + q(PROMPT), own_pos="bottom")
# Equals and starred separators, disclaimers
L("equals-original-en", "en", "Lotus", ["===== Original Message =====", "From: Referee <referee@example.test>", "Sent: 12/05/2026 10:14", "To: {addr}", "Subject: Dice Brewing", ""] + NOGUARD)
L("starred-de-header-html", "de", "Microsoft Outlook 16.0", ["<p>** Von: ** Referee &lt;referee@example.test&gt;<br>** Gesendet: ** Dienstag, 12. Mai 2026 10:14<br>** An: ** {addr}<br>** Betreff: ** Dice Brewing</p>"] + NOGUARD, html=True)
L("starred-fr-de-frame", "fr", "Microsoft Outlook 16.0", ["** De : Referee <referee@example.test> **", "** Envoyé : mardi 12 mai 2026 10:14 **", "** À : {addr} **", "** Objet : Dice Brewing **", ""] + NOGUARD)
L("disclaimer-box-en", "en", "Microsoft Outlook 16.0", ["-----Original Message-----", "From: Referee <referee@example.test>", "Sent: Tuesday, May 12, 2026 10:14 AM", "To: {addr}", "Subject: Dice Brewing", ""] + NOGUARD, own_pos="top-disclaimer")
# Mail for Windows footers
for lang, foot in {"en": "Sent from Mail for Windows", "it": "Inviato da Posta per Windows", "fr": "Envoyé à partir de Courrier pour Windows", "nl": "Verzonden vanuit Mail voor Windows", "de": "Gesendet von Mail für Windows", "es": "Enviado desde Correo para Windows", "pt": "Enviado do Email para Windows"}.items():
    f, s, t, o, d, sp = OLF[lang]
    L("mail-windows-" + lang + "-footer-above", lang, "Windows Mail", ["", foot, "", f + sp + "Referee <referee@example.test>", s + sp + d, t + sp + "{addr}", o + sp + "Dice Brewing", ""] + NOGUARD, own_pos="top")

CMDS = {"en": (["STORE Y5 G4"], "Hi Referee,", "Thanks,", "Sent from my iPhone"), "it": (["2"], "Ciao,", "Grazie,", "Inviato da iPhone"),
        "fr": (["option 2"], "Bonjour,", "Merci,", "Envoyé de mon iPhone"), "nl": (["2)"], "Hoi,", "Groetjes,", "Verstuurd vanaf mijn iPhone"),
        "de": (["(2)"], "Hallo,", "Viele Grüße", "Von meinem iPhone gesendet"), "es": (["#2"], "Hola,", "Saludos,", "Enviado desde mi iPhone"),
        "pt": (["2."], "Olá,", "Obrigado,", "Enviado do meu iPhone")}
EXTRA = [["PLACE MH1 SEED", "STORE Y5 G4"], ["Hi! PASS"], ["PASS - cheers"], ["2 please"], ["  2) STORE Y5 G4   # the yeast"], ["PASS 👍"], ["opzione 2"], ["choix 2"], ["optie 2"], ["2 - thanks"]]
BUSINESS = {"de": ["Anna Weber", "ACME Brauerei GmbH", "Hauptstraße 1, 10115 Berlin", "Tel.: +49 30 1234567", "Fax: +49 30 1234568", "Sitz: Berlin, Amtsgericht Charlottenburg HRB 123456", "Geschäftsführer: Max Muster", "USt-IdNr.: DE123456789"],
            "it": ["Anna Bianchi", "ACME Birrificio S.r.l.", "Via Roma 1, 20121 Milano", "Tel. +39 02 1234567", "P.IVA 01234567890", "Azienda certificata ISO 9001"],
            "fr": ["Anne Martin", "ACME Brasserie SARL", "12 rue de la Paix, 75002 Paris", "Tél. : +33 1 23 45 67 89", "SIRET 123 456 789 00012"],
            "nl": ["Anna de Vries", "ACME Brouwerij B.V.", "Kerkstraat 1, 1017 GA Amsterdam", "T +31 20 123 4567", "KvK 12345678 | BTW NL123456789B01", "IBAN NL91 ABNA 0417 1643 00"],
            "en": ["Anna Smith", "Head Brewer", "ACME Brewing Ltd", "Tel. +44 20 7946 0958", "Registered in England and Wales, Company No. 01234567", "ISO 9001 certified"],
            "es": ["Ana García", "ACME Cervecería S.L.", "Calle Mayor 1, 28013 Madrid", "Tel.: +34 91 123 45 67", "CIF B12345678"],
            "pt": ["Ana Silva", "ACME Cervejaria Lda.", "Rua Augusta 1, 1100-048 Lisboa", "Tel.: +351 21 123 4567", "NIF 123456789"]}
NAMES = {"en": ("Anna Smith", "anna.smith@example.org"), "it": ("Anna Bianchi", "anna.bianchi@libero.example"), "fr": ("Anne Martin", "anne.martin@orange.example"),
         "nl": ("Anna de Vries", "anna@kpn.example"), "de": ("Anna Weber", "anna.weber@gmx.example"), "es": ("Ana García", "ana@example.es"), "pt": ("Ana Silva", "ana@example.pt")}

def own(lay, i):
    lang = lay["lang"]
    cmd, greet, thanks, foot = CMDS[lang]
    cmds = EXTRA[i % len(EXTRA)] if i % 3 == 0 else cmd
    first = NAMES[lang][0].split()[0]
    pos = lay["pos"]
    if pos == "top-footer":
        return cmds + ["", foot, ""], cmds
    if pos == "below-footer":
        return [foot, "", *cmds, ""], cmds
    if pos == "top-business":
        return cmds + ["", thanks, ""] + BUSINESS[lang] + [""], cmds
    if pos == "top-greeting":
        return [greet, "", *cmds, "", thanks, first, ""], cmds
    if pos == "top-k9":
        return cmds + ["", "-- ", "Sent from my Android device with K-9 Mail. Please excuse my brevity.", ""], cmds
    if pos == "top-disclaimer":
        return cmds + ["", "Anna Smith", "", "*" * 40, "DISCLAIMER: This e-mail is confidential and intended solely for the addressee.", "*" * 40, ""], cmds
    return cmds + [""], cmds

out = []
n = int(sys.argv[1]) if len(sys.argv) > 1 else 311
for i, lay in enumerate(layouts):
    num = n + i
    lang = lay["lang"]
    name, addr = NAMES[lang]
    body_own, expect = own(lay, i)
    quote = [l.replace("{addr}", addr).replace("{name}", name.split()[0]) for l in lay["quote"]]
    if lay["pos"].startswith("bottom"):
        tail = []
        if lay["pos"] == "bottom-business":
            tail = ["", CMDS[lang][2], ""] + BUSINESS[lang]
        lines = quote + [""] + expect + tail + [""]
    else:
        lines = body_own + quote
    fname = "%03d-%s" % (num, lay["slug"])
    hdr = ["Return-Path: <%s>" % addr, "Delivered-To: referee+g42.1.k7x9q2abcd3e.57@example.test", "Date: Tue, 12 May 2026 11:%02d:07 +0200" % (i % 60),
           "From: %s <%s>" % (name, addr), "To: Referee <referee+g42.1.k7x9q2abcd3e.57@example.test>",
           "Subject: Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn", "Message-ID: <c%d.%s@%s>" % (num, lay["slug"].replace("-", "."), addr.split("@")[1]),
           "In-Reply-To: <rf.g42.1.57.a1b2@example.test>", "References: <rf.g42.1.57.a1b2@example.test>", "MIME-Version: 1.0", "X-Mailer: " + lay["mailer"]]
    if lay["html"]:
        import html as h
        parts = []
        for l in lines:
            if l.startswith("<"):
                parts.append(l)
            else:
                parts.append("<div>" + (h.escape(l) if l else "<br>") + "</div>")
        text = "<html><body>" + "\n".join(parts) + "</body></html>\n"
        hdr += ['Content-Type: text/html; charset="utf-8"', "Content-Transfer-Encoding: base64"]
        body = base64.encodebytes(text.encode()).decode()
    else:
        hdr += ['Content-Type: text/plain; charset="utf-8"', "Content-Transfer-Encoding: 8bit"]
        body = "\n".join(lines) + "\n"
    with open(os.path.join(D, fname + ".eml"), "w") as f:
        f.write("\r\n".join(hdr) + "\r\n\r\n" + body.replace("\r\n", "\n").replace("\n", "\r\n"))
    out.append((fname, [e for e in expect if e.strip()]))
json.dump(out, open("/tmp/corpus20-expect.json", "w"), ensure_ascii=False)
print(len(layouts), "layouts written")
