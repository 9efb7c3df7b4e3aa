/**
 * The handlers of the push API (PRODUCT.md §7 "Push"), shared by `/api/push/*` and their
 * `/api/notifications/*` aliases: public key, subscribe, unsubscribe, test, and the one-tap action.
 */
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { isAllowedPushEndpoint } from "~/lib/push";
import { apiRoute, json, readBody } from "./api.server";
import { requireApiUser } from "../services/identity/auth.server";
import { config } from "../services/platform/config.server";
import { NotFoundError, ValidationError } from "../services/platform/errors.server";
import { sendTestNotification } from "../services/notify/notifications.server";
import { requestLanguage } from "../services/identity/request-language.server";
import { consumeUserAction } from "../services/platform/user-rate-limit.server";
import { removeSubscription, saveSubscription, subscribeSchema, subscriptionCount, unsubscribeSchema } from "~/services/notify/push/push.server";
import { pushActionSchema, runPushAction } from "~/services/trading/push-action.server";
import { vapidKeys } from "../services/notify/push/vapid.server";

/** GET → {success, key, publicKey}: the VAPID public key browsers subscribe with (public; 404 'Public key not found' only when none can be had). */
export const publicKeyRoute = (request: Request) =>
  apiRoute(request, "GET", async () => {
    const keys = await vapidKeys().catch(() => null);
    if (!keys?.publicKey) throw new NotFoundError(msg("push:publicKeyNotFound"));
    return { success: true, key: keys.publicKey, publicKey: keys.publicKey };
  });

/** POST {subscription, topics?, client?} or the bare subscription → 201 {success, message, id}. */
export const subscribeRoute = (request: Request) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const input = await readBody(request, subscribeSchema);
    if (!isAllowedPushEndpoint(input.subscription.endpoint, config().PUSH_SERVICE_HOSTS)) throw new ValidationError(msg("push:unknownPushService"));
    const id = await saveSubscription(user.id, input);
    return json({ success: true, message: translateMsg(msg("push:subscribed"), user.preferences?.language), id }, 201);
  });

/** POST {endpoint} → {success, removed}: removes one of the caller's devices (another user's endpoint is left alone). */
export const unsubscribeRoute = (request: Request) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { endpoint } = await readBody(request, unsubscribeSchema);
    const removed = await removeSubscription(user.id, endpoint);
    return { success: true, removed, message: translateMsg(msg(removed ? "push:unsubscribed" : "push:notSubscribed"), user.preferences?.language) };
  });

/**
 * POST → 201 {success, message, notification, devices}: the test notification, stored like any
 * other, so it reaches every subscribed device by push (rate-limited per user).
 */
export const pushTestRoute = (request: Request) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    await consumeUserAction(user.id, "notifications.test");
    const language = user.preferences?.language;
    const notification = await sendTestNotification(user.id, language);
    const devices = await subscriptionCount(user.id);
    const message = translateMsg(devices ? msg("push:testSent", { count: devices }) : msg("push:testNoDevice"), language);
    return json({ success: true, message, notification, devices }, 201);
  });

/** POST {token, action} → {success, message}: a one-tap action from a push, authorised by its token alone (no session). */
export const pushActionRoute = (request: Request) =>
  apiRoute(request, "POST", async () => runPushAction(await readBody(request, pushActionSchema), await requestLanguage(request)));
