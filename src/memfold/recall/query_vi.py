"""The Vietnamese words a recall query drops and the ones that make it a question about
preferences; `query.plan_query` uses them for a query `language.looks_vietnamese` reads as
Vietnamese (told per query: English queries keep English words only, so "AI" stays a word).

Each word is listed as written and, where the unaccented form is not also a common content
word, as typed without diacritics ("gì" and "gi", "không" and "khong").
"""

from __future__ import annotations

# question words, particles, pronouns of address, copulas, tense and aspect markers
VI_STOP_WORDS = frozenset(
    """gì gi nào nao đâu ở o khi ai bao giờ gio có co không khong là của cua và va các cac
    những một cái này đó kia thì thi mà với voi cho được duoc bị đã da đang dang sẽ se rồi roi
    vẫn cũng cung nhé ạ à ơi vậy sao thế như nhu hiện hien nay bây giờ ấy
    hả hở chứ chăng đấy nhỉ nhi mấy bấy lúc luc về tại từ tu đến trên tren dưới trong
    điều dieu chuyện biết biet đúng xảy xay ra hãy sự thật còn nữa nua vừa mới""".split()
)
# words that make a query ask for a view: "Peter thích gì" favours opinions
VI_OPINION_WORDS = frozenset(
    """thích thich ghét ghet ưa ua yêu yeu chuộng chuong muốn muon nghĩ ý kiến kien quan
    điểm diem sở khoái khoai mê ngại""".split()
)
# English stop words that are Vietnamese words too ("An", "to" big, "me" mother, "no" full):
# a Vietnamese query keeps them
VI_CONTENT_WORDS = frozenset("an to me no do can on".split())
