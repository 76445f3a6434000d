"""The Vietnamese lexicon of the rule judge: the words and patterns the table reader
(judge.reading_table) reads Vietnamese facts with.  General Vietnamese — change verbs
(chuyển từ X sang Y, thay X bằng Y, đổi tên thành), words of ending (không còn, đã nghỉ,
đã bỏ, chia tay), slots (sống ở, làm việc tại, làm nghề, dùng, chạy trên, là) and the
guards (định, sẽ, có thể, nên, chồng/vợ/bạn của ..., cũng, thêm, đi công tác, tuần này,
không ... nữa, đã huỷ) — not the wording of any pair file.

All patterns are written without diacritics: they run over folded text (judge.lexicon), so
"đã chuyển" and "da chuyen" read alike.  Pure data.
"""

from __future__ import annotations

import re

from memfold.lifecycle.judge.lexicon import Lexicon, compile_all

_STOP = frozenset("""
la cua va voi o tai trong tren duoi cho den tu sang ve vao ra qua len xuong thanh bang nhu cu
nhung cac mot hai nhung nay kia do day ay thi ma ne roi da dang se van con cung rat lam qua
duoc bi khong chua co the nay nao gi ai dau khi luc vua moi gio hien nay bay nua
chiec cai con nguoi viec su nhieu it moi hang tung toan bo chi hon nhat ca ke de vi nen
anh chi em ong ba co chu bac be thay
thich ua ghet dung su lam viec song
""".split()) - frozenset(["hai"])  # "hai" (two) is a number word, not a function word

# A phrase and the English stem the shared rules compare (families, statuses, antonyms,
# relationship words): "cơ sở dữ liệu" is a database whatever the language of the other fact.
_CONCEPTS = [
    (r"co so du lieu|kho du lieu", "database"), (r"bo nho dem", "cache"),
    (r"ngan hang", "bank"), (r"nha mang|mang di dong", "telco"),
    (r"dang cho(?: duyet| xet)?|cho duyet", "pending"), (r"dang mo\b", "open"),
    (r"thu nghiem|ban beta|\bbeta\b", "beta"), (r"dang xay|dang sua chua", "construction"),
    (r"dang (?:duoc )?xu ly", "progress"),
    (r"(?:da |duoc )+(?:duoc )?duyet|da phe duyet", "approved"),
    (r"da dong\b|da duoc dong", "closed"), (r"ra mat|phat hanh", "launched"),
    (r"\bxong\b|hoan thanh|hoan tat", "done"), (r"da (?:duoc )?sua", "fixed"),
    (r"ngan gon|ngan\b|tom tat", "concise"), (r"\bdai\b|chi tiet|day du", "long"),
    (r"buoi sang|\bsang som\b", "morning"), (r"buoi toi|ban dem|\btoi muon\b", "evening"),
    (r"doc than", "single"), (r"hen ho|nguoi yeu", "dating"),
    (r"ket hon|da cuoi|lay chong|lay vo", "married"), (r"\ban chay\b", "vegetarian"),
    (r"lam o nha|lam viec o nha|tu xa", "remote"), (r"van phong", "office"),
]

_ROLE = (r"ky su|lap trinh vien|giao vien|giang vien|bac si|y ta|luat su|ke toan|nhan vien"
         r"|truong (?:nhom|phong|ban)|giam doc|pho giam doc|quan ly|kien truc su|thiet ke"
         r"|nha thiet ke|sinh vien|hoc sinh|thuc tap sinh|dau bep|tai xe|phong vien|nha bao"
         r"|chuyen vien|chuyen gia|tu van|nghien cuu sinh|duoc si|nha khoa hoc|kinh doanh")
# kin whose word says so alone ("Chồng cô Thảo"), and kin words that are other words too
# ("bạn"/"bản", "chủ nhà" the landlord), which need "của" ("Bạn của Oanh")
_KIN = (r"chong|vo|ban than|ban gai|ban trai|nguoi yeu|me|bo|cha|ba me|bo me|anh trai"
        r"|chi gai|em gai|em trai|con gai|con trai|ong noi|ong ngoai|ba noi|ba ngoai|thim"
        r"|dong nghiep|sep|hang xom|ban cung phong|gia dinh|ho hang")
_KIN_OF = r"ban|con|ong|ba|co|chu|bac|di|cau|mo|anh|chi|em|khach hang|doi tac"
_MOVE = r"(?:chuyen|don|doi|di chuyen|don nha|chuyen nha)"
_TO = r"(?:sang|qua|den|toi|ve|vao|ra|len|xuong)"

LEXICON = Lexicon(
    name="vi",
    stop=_STOP,  # with the verbs too common to make a topic (thích, dùng, làm việc, sống)
    concepts=tuple((re.compile(p), c) for p, c in _CONCEPTS),
    fronted=re.compile(r"^(?:tu|ke tu|sau|truoc|vao|trong|hoi|nam|thang|tuan|hom|gan day"
                       r"|hien nay|bay gio|gio day|tu dau|cuoi|dau|luc)\b[^,]{0,50},\s*"),
    clause_split=re.compile(r"\s*(?:;|,\s*|\s[-–—]\s|\s+nhung\s+|(?<!da)(?<!vua)(?<!moi)"
                            r"(?<!se)\s+roi\s+|\s+sau khi\s+"
                            r"|\s+va\s+(?=(?:gio|bay gio|hien|da|dang|se|con|khong|chuyen"
                            r"|ve|lam)\b))\s*"),
    markers=frozenset("""da dang se van con khong chua la o song lam dung su chay duoc bi do
        vua moi gio hien cung thich ghet ua hoc day di chuyen doi thay nang tang giam bo nghi
        thoi dinh muon yeu co can nam hut noi nuoi mo gui luu soan nghe choi an uong ket
        don doi quay thu phong tu""".split()),
    changes=(
        (re.compile(rf"\b(?:{_MOVE}|nang cap|nang|cap nhat|tang|giam|ha|thay doi)\s+(?P<obj>"
                    rf"(?:\w+\s+){{0,12}}?)tu\s+(?P<old>.+?)\s+(?:{_TO}|thanh)\s+(?P<new>.+)$"),
         "switch"),
        (re.compile(r"\b(?:thay the|thay)\s+(?P<old>.+?)\s+bang\s+(?P<new>.+)$"), "replace"),
        (re.compile(r"^(?P<old>.+?)\s+(?:da\s+)?(?:duoc|bi)\s+thay\s+(?:the\s+)?bang\s+"
                    r"(?P<new>.+)$"), "replace"),
        (re.compile(r"^(?P<new>.+?)\s+(?:da\s+)?thay\s+(?:the\s+)?(?:cho\s+)?(?P<old>.+)$"),
         "replace"),
        (re.compile(r"\bdoi\s+ten\s+(?:tu\s+(?P<old>.+?)\s+)?(?:thanh|la|sang)\s+(?P<new>.+)$"),
         "rename"),
        (re.compile(r"\bdoi\s+(?!ten\b)(?P<old>.+?)\s+(?:sang|lay|thanh|qua)\s+(?P<new>.+)$"),
         "replace"),
        (re.compile(r"\b(?:da|vua|moi)\s+(?:bo|nghi|roi|roi bo)\s+(?P<old>.+?)\s+(?:de\s+)?"
                    r"(?:sang|qua|ve)\s+"
                    r"(?:lam\s+(?:o|tai|cho)?\s*)?(?P<new>.+)$"), "replace"),
        (re.compile(r"\bquay\s+(?:lai|ve)\s+(?:dung\s+|voi\s+)?(?P<new>.+)$"), "return"),
        (re.compile(rf"\b(?:{_MOVE}|nang cap|nang|cap nhat|tang|giam|ha|thay doi|doi)\s+"
                    rf"(?P<obj>(?:\w+\s+){{0,8}}?){_TO}\s+(?P<new>.+)$"), "switch"),
        (re.compile(r"\b(?:thang chuc|duoc thang chuc)\s+(?:len\s+|thanh\s+)?(?P<new>.+)$"),
         "promote"),
        (re.compile(r"\b(?:da|vua|moi)\s+len\s+(?P<new>.+)$"), "switch"),  # "đã lên Node 20"
    ),
    relations=(
        (re.compile(r"\b(?:song|o|cu tru|dinh cu)\s+(?:o|tai)\s+(?P<val>.+)$"), "location"),
        (re.compile(rf"\b{_MOVE}\s+{_TO}\s+(?P<val>.+?)\s+song\b"), "location"),
        (re.compile(rf"\b(?:lam\s+nghe|lam)\s+(?P<val>(?:{_ROLE})\b.*?)(?:\s+(?:o|tai|cho)\s"
                    rf".*)?$"), "role"),
        (re.compile(rf"\b{_MOVE}\s+{_TO}\s+(?P<val>.+?)\s+lam(?:\s+viec)?$"), "employer"),
        (re.compile(r"\b(?:lam viec|lam|cong tac|ve lam)\s+(?:\w+\s+){0,4}?(?:o|tai|cho)\s+"
                    r"(?P<val>.+)$"), "employer"),
        (re.compile(r"\b(?:thang chuc|duoc thang chuc)\s+(?:len\s+|thanh\s+)?(?P<val>.+)$"),
         "role"),
        (re.compile(rf"\b{_MOVE}\s+(?:nha\s+)?{_TO}\s+(?!(?:dung|lam|hoc|day|su dung|chay|ban"
                    rf"|nghe)\b)(?P<val>.+)$"), "location"),
        (re.compile(r"\bbao cao\s+(?:truc tiep\s+)?(?:cho|len)\s+(?P<val>.+)$"), "manager"),
        (re.compile(r"\b(?:hen ho|yeu|cuoi|ket hon|lay)\s+(?:voi\s+)?(?P<val>.+)$"),
         "relationship"),
        (re.compile(r"\b(?P<val>doc than|ly hon|ly di)\b"), "relationship"),
        (re.compile(r"\bten\s+(?:la\s+)?(?P<val>.+)$"), "name"),
        (re.compile(r"\b(?:thich|ua|chuong|ghet)\s+(?P<val>.+)$"), "prefer"),
        (re.compile(r"\bchay\s+(?:tren\s+)?(?P<val>.+)$"), "platform"),
        (re.compile(r"\b(?:dung|su dung|xai|yeu cau)\s+(?P<val>.+)$"), "use"),
        (re.compile(r"\bhoc\s+(?P<val>(?:lop|nam)\s+.+)$"), "grade"),
        (re.compile(r"\b(?P<val>\d+)\s+tuoi\b"), "age"),
    ),
    copula=re.compile(r"^(?P<subj>.+?)\s+(?:gio\s+|bay gio\s+|hien\s+|hien nay\s+|van\s+"
                      r"|con\s+|da\s+|nay\s+)*(?:la|thanh)\s+(?P<val>.+)$"),
    attr_relations=(  # "<attribute> của X là Y" that names a relation of X
        (re.compile(r"^(?:nguoi\s+)?(?:quan ly|sep)(?:\s+truc tiep)?(?:\s+cua\s+\w+)?$"),
         "manager"),
        (re.compile(r"^(?:nha|noi o|dia chi nha)(?:\s+cua\s+\w+)?$"), "location"),
        (re.compile(r"^(?:cong ty|noi lam viec|cho lam)(?:\s+cua\s+\w+)?$"), "employer"),
    ),
    where=re.compile(r"(?:^|\s)(?:nam\s+)?o\s+(?P<val>.+)$"),
    classes=(
        (re.compile(r"^\d+(?:\s+tuoi)?$"), "age"),
        (re.compile(r"\b(?:an chay|an thuan chay|an man)\b"), "diet"),
        (re.compile(rf"^(?:{_KIN})\s+(?:cua\s+)?\w|^(?:{_KIN_OF})\s+cua\s+\w"), "kinship"),
        (re.compile(r"\b(?:doc than|da ket hon|da co gia dinh|da ly hon)\b"), "relationship"),
        (re.compile(rf"^(?:nguoi\s+|mot\s+)?(?:{_ROLE})\b"), "role"),
    ),
    ends=compile_all(
        r"\bkhong\s+con\s+(?:la\s+|lam\s+|o\s+)?(?P<what>.+)$",
        r"\b(?:chang|cha|chua)\s+con\s+(?P<what>.+)$",
        r"\b(?:da|vua|moi)\s+(?:nghi|bo|thoi|ngung|dung|huy|ban|roi|cai|dong cua|giai the"
        r"|cat|xoa|go|tu chuc|nghi huu)\s*(?:viec\s+)?(?:o\s+|tai\s+)?(?P<what>.*)$",
        r"\b(?:nghi viec|bo viec|thoi viec|nghi huu|tu chuc)\s*(?:o\s+|tai\s+)?(?P<what>.*)$",
        r"\b(?:het|thoi)\s+(?P<what>thich\b.*)$",
        r"\b(?:da\s+)?(?:dong cua|giai the|ngung hoat dong)(?P<what>)",
    ),
    parted=re.compile(r"\b(?:chia tay|ly hon|ly di|dut tinh|khong con (?:yeu|hen ho))\b"),
    clip=re.compile(r"[,;(]|\s[-–—]\s|\s(?:vao|tu|khi|de|vi|nho|sau khi|truoc khi|nhung|ma"
                    r"|duoc|tu nam|tu thang|trong|ve)\s"),
    guards=(
        ("question", re.compile(r"\?|\b(?:khong biet|chua chac|chua ro|nghe noi|hinh nhu"
                                r"|can kiem tra|co phai|can xac nhan|chua xac nhan|don rang)\b"
                                r"|\bco\s+(?:\w+\s+){1,6}khong$")),
        ("suggestion", re.compile(r"\b(?:nen(?!\s+tang)|de nghi|de xuat|goi y|khuyen"
                                  r"|sao khong)\b")),
        ("discussion", re.compile(r"\b(?:dang ban|dang thao luan|dang tranh luan"
                                  r"|chua quyet dinh|chua chot)\b")),
        ("negated", re.compile(r"\b(?:khong|chua|chang)\s+(?:\w+\s+)?(?:chuyen|doi|nghi|bo"
                               r"|thay|di|roi|nang)\b(?!.*\b(?:nua|ma)\s+(?:gio|bay gio)\b)"
                               r"|\b(?:da\s+)?huy\b|\btu choi\b|\bo lai\b|\bgac lai\b"
                               r"|\bhoan lai\b|\bkhong thanh\b|\bquay lai\b|\bquay ve\b")),
        ("plan", re.compile(r"\b(?:se|dinh|du dinh|co the|co le|dang tinh|tinh\s+(?:chuyen"
                            r"|mua|nghi|doi|ban|ve|sang)|muon|neu|ke hoach|sap|chuan bi"
                            r"|du kien|hy vong|mong|can nhac|xem xet|dang tim|ung tuyen"
                            r"|phong van|sang nam|nam sau|thang sau|tuan sau|quy sau)\b")),
        ("past", re.compile(r"\b(?:hoi (?:nho|be|truoc|xua|sinh vien|hoc)|ngay (?:truoc|xua)"
                            r"|truoc day|ngay be)\b|(?<=\s)tung\s+(?!la\b)\w")),
        ("restated", re.compile(r"\bvan\s+(?:con|la|o|song|lam|dung|thich|chay|giu)\b"
                                r"|\bnhac lai\b")),
        ("temporary", re.compile(r"\b(?:di cong tac|cong tac|du lich|nghi mat|nghi phep"
                                 r"|tham(?!\s+gia)|ve tham|den het|cho den|tam thoi"
                                 r"|trong\s+(?:\w+\s+)?(?:ngay|tuan)|(?:\d+|mot|hai|ba|vai|may)\s+(?:ngay|tuan"
                                 r"|dem)|tu\s+\d+/\d+\s+den)\b")),
    ),
    kin=re.compile(rf"^(?:(?:{_KIN})\s+(?:(?:ruot|ho)\s+)?(?:cua\s+)?|(?:{_KIN_OF})\s+cua\s+)"
                   r"(?:(?:co|chu|anh|chi|em|ong|ba|be|ban)\s+)?(?P<who>\w+)\s+"
                   r"(?!(?:gio\s+|bay gio\s+|hien\s+|van\s+|nay\s+)?la\b)\w"),
    this_week=re.compile(r"\b(?:tuan nay|cuoi tuan nay|thang nay|hom nay|dot nay)\b"),
    additive=re.compile(r"\b(?:cung(?!\s+(?:cap|voi|nhau|luc))|them|ngoai ra|ben canh|con\s+"
                        r"(?:\w+\s+){1,6}nua)\b"),
    not_additive=re.compile(r"\b(?:khong|chang|cha|chua)\s+con\b"),
    now=re.compile(r"\b(?:gio|bay gio|hien|hien nay|hien tai|tu nay|ke tu|tu thang|tu nam"
                   r"|tu dau|tu quy|chuyen sang|chuyen qua|da chuyen|chinh thuc|khong con"
                   r"|nay da|sau dot)\b"),
    reversal=re.compile(r"\b(?:doi y|khong con|het thich|thoi thich|chuyen sang|bay gio|gio"
                        r"|da chuyen|quay sang)\b"),
    changed_mind=re.compile(r"\b(?:doi y|thay doi y kien|het thich|thoi thich"
                            r"|khong con thich)\b"),
    positive=re.compile(r"\b(?:thich|ua|yeu thich|me|chuong|khoai|quy)\b"),
    negative=re.compile(r"\b(?:ghet|(?:khong|chang|cha|chua|het|thoi)\s+(?:con\s+|he\s+)?"
                        r"(?:thich|ua|chuong)|so|chan|ne)\b"),
    reported=re.compile(r"^(?P<who>\w+)\s+(?:noi|ke|cho biet|(?:bao|nghi)\s+(?:rang|la))\s+\w"),
)
