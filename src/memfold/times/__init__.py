"""Times written by people: dates, spans and relative phrases, in English and Vietnamese."""
