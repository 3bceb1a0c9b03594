// Type-checked by `tsc` only (nothing imports it, so it is not bundled): every catalogue has every English id.
import type { Message, MessageId } from "../i18n";
import pl from "./pl.json";
import ru from "./ru.json";
import uk from "./uk.json";

export const catalogues: Record<string, Record<MessageId, Message>> = { ru, uk, pl };
