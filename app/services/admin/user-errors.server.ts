/**
 * The admin users area's failure messages (PRODUCT.md §8 Admin): a domain error (bad field, 404,
 * 409…) keeps its precise message; anything unexpected is logged and becomes the area's message —
 * 'Erro ao carregar usuários', 'Erro ao salvar usuário', 'Erro ao estender licença', 'Erro ao excluir
 * usuário' — as a 500.
 */
import { msg } from "../../../core/i18n/message";
import { DomainError, InternalError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";

/**
 * Runs `fn`; an unexpected failure becomes InternalError(`key`).
 * @param key an `admin-accounts:errors.*` key
 */
export async function adminFailure<T>(key: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DomainError || err instanceof Response) throw err;
    logger().error({ err: err instanceof Error ? err.stack : String(err), key }, "falha no admin de usuários");
    throw new InternalError(msg(key));
  }
}
