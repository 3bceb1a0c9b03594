// Page parts drawn as snabbdom vnodes (as lichess's ui does): a view function returns the part, `patch` puts it in
// the page changing only what differs, so the focus, a hover and an animation survive a redraw.
import { attributesModule, classModule, eventListenersModule, init, propsModule, styleModule } from "snabbdom";

export const patch = init([attributesModule, classModule, propsModule, styleModule, eventListenersModule]);
